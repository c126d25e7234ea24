// Vertex AI's credential: an OAuth 2.0 access token obtained with the service account's own
// signed assertion (Google's server-to-server flow): a JWT signed RS256 with the account's
// private key, claiming the account as issuer, the cloud-platform scope, the token URI as
// audience and an hour of validity, exchanged at the token URI for a bearer token
// (grant_type jwt-bearer). The relay caches the token until shortly before it expires
// (upstream/credential-cache.ts). Signing uses jose, not our own code.
import { importPKCS8, SignJWT } from "jose";
import type { CredentialExchange, UpstreamRequest, UpstreamTarget } from "../adaptor.ts";
import { isVertexApiKey, parseServiceAccount, type ServiceAccount } from "./vertex-key.ts";
import { refuseChannelSetup } from "../conversion-refusal.ts";

export const cloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform";
export const jwtBearerGrant = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** Google accepts assertions valid for at most an hour. */
const assertionSeconds = 3600;

/** The signed assertion for a service account at a given time. */
async function signAssertion(account: ServiceAccount, nowSeconds: number): Promise<string> {
  let key: CryptoKey;
  try {
    key = await importPKCS8(account.privateKey, "RS256");
  } catch {
    return refuseChannelSetup("Vertex AI 服务账号的 private_key 不是 PKCS#8 格式的 RSA 私钥");
  }
  return new SignJWT({ scope: cloudPlatformScope })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", ...(account.privateKeyId ? { kid: account.privateKeyId } : {}) })
    .setIssuer(account.clientEmail)
    .setAudience(account.tokenUri)
    .setIssuedAt(nowSeconds)
    .setExpirationTime(nowSeconds + assertionSeconds)
    .sign(key);
}

export async function tokenRequest(target: UpstreamTarget, nowSeconds: number): Promise<UpstreamRequest> {
  const account = parseServiceAccount(target.key);
  const assertion = await signAssertion(account, nowSeconds);
  return {
    url: account.tokenUri,
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({ grant_type: jwtBearerGrant, assertion }).toString(),
  };
}

export function parseToken(body: string, nowSeconds: number): { value: string; expiresAt: number } {
  const answer = JSON.parse(body) as { access_token?: unknown; expires_in?: unknown };
  if (typeof answer.access_token !== "string" || answer.access_token === "") throw new Error("no access token");
  const lifetime = typeof answer.expires_in === "number" && answer.expires_in > 0 ? answer.expires_in : assertionSeconds;
  return { value: answer.access_token, expiresAt: nowSeconds + lifetime };
}

export const vertexCredential: CredentialExchange = {
  cacheKey: (target) => target.key,
  // An express-mode API key is sent as it is.
  needed: (target) => !isVertexApiKey(target.key),
  request: tokenRequest,
  parse: parseToken,
};
