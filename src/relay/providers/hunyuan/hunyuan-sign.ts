// Tencent Cloud API 3.0 request signing, TC3-HMAC-SHA256 ("签名方法 v3"): a canonical request
// (method, path, query, the signed headers, the SHA-256 of the body) is hashed into a string to
// sign under a credential scope (date/service/tc3_request), and signed with a key derived from
// the SecretKey by HMAC over the UTC date, the service and "tc3_request". Pure: the timestamp is
// passed in; hunyuan-sign.test.ts checks it against the example Tencent publishes.
import { createHash, createHmac } from "node:crypto";

export type Tc3Input = {
  secretId: string;
  secretKey: string;
  /** The product's service name: the first label of its host (hunyuan). */
  service: string;
  host: string;
  /** Unix seconds; also sent as X-TC-Timestamp. */
  timestamp: number;
  contentType: string;
  /** The exact body bytes sent. */
  payload: string;
};

export type Tc3Signature = { authorization: string; signature: string; canonicalRequest: string; stringToSign: string };

const algorithm = "TC3-HMAC-SHA256";
const signedHeaders = "content-type;host";

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const hmac = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest();

/** The UTC date of a timestamp as YYYY-MM-DD (the credential scope's date). */
export const utcDate = (timestamp: number) => new Date(timestamp * 1000).toISOString().slice(0, 10);

export function signTc3(input: Tc3Input): Tc3Signature {
  const canonicalHeaders = `content-type:${input.contentType.toLowerCase()}\nhost:${input.host.toLowerCase()}\n`;
  const canonicalRequest = ["POST", "/", "", canonicalHeaders, signedHeaders, sha256Hex(input.payload)].join("\n");
  const date = utcDate(input.timestamp);
  const scope = `${date}/${input.service}/tc3_request`;
  const stringToSign = [algorithm, String(input.timestamp), scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(`TC3${input.secretKey}`, date), input.service), "tc3_request");
  const signature = createHmac("sha256", signingKey).update(stringToSign, "utf8").digest("hex");
  const authorization = `${algorithm} Credential=${input.secretId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { authorization, signature, canonicalRequest, stringToSign };
}
