// AWS Signature Version 4 for a request, by the AWS SDK's own signer (@smithy/signature-v4).
// Pure: the time is an argument (the caller passes the relay's clock), so the signing is
// checked against AWS's published test vectors. The checksum header is left out (only S3 and
// Glacier need it); every other AWS service, Bedrock included, signs the payload hash without it.
import { Hash } from "@smithy/core/serde";
import { SignatureV4 } from "@smithy/signature-v4";

export type AwsCredentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

export type AwsScope = { credentials: AwsCredentials; region: string; service: string };

export type RequestToSign = {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
};

/**
 * Signers by credentials and scope: a signer keeps the day's derived signing key, saving four
 * HMACs per request. The channel cache holds the same secrets in memory already.
 */
const signers = new Map<string, SignatureV4>();

function signerFor(scope: AwsScope): SignatureV4 {
  const id = `${scope.credentials.accessKeyId}\n${scope.credentials.secretAccessKey}\n${scope.credentials.sessionToken ?? ""}\n${scope.region}\n${scope.service}`;
  let signer = signers.get(id);
  if (!signer) {
    if (signers.size >= 256) signers.clear();
    signer = new SignatureV4({
      credentials: scope.credentials,
      region: scope.region,
      service: scope.service,
      sha256: Hash.bind(null, "sha256"),
      applyChecksum: false,
    });
    signers.set(id, signer);
  }
  return signer;
}

/** The request's headers with x-amz-date and authorization added (and the host it was signed for). */
export async function signAwsRequest(request: RequestToSign, scope: AwsScope, date: Date): Promise<Record<string, string>> {
  const url = new URL(request.url);
  const signer = signerFor(scope);
  const query: Record<string, string> = {};
  for (const [name, value] of url.searchParams) query[name] = value;
  const signed = await signer.sign(
    {
      method: request.method,
      protocol: url.protocol,
      hostname: url.hostname,
      ...(url.port ? { port: Number(url.port) } : {}),
      // Already percent-encoded (model ids carry ":" as %3A); the signer encodes it once more,
      // as AWS does when it checks the signature.
      path: url.pathname,
      query,
      headers: { ...request.headers, host: url.host },
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    { signingDate: date },
  );
  return signed.headers as Record<string, string>;
}
