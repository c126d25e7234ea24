// A Vertex AI channel's key: a Google Cloud service-account key file (JSON), or an API key of
// Vertex AI in express mode (Google's "Vertex AI in express mode": the global endpoint with no
// project or location in the path, the key as x-goog-api-key, Google's own models only). What the
// relay uses of a key file: the account's email and private key (to sign the token request), the
// key id, the project (in every URL) and the token URI. A key file missing any of them cannot
// work: the call fails as a channel set up wrongly (500, tried on another channel), before
// anything is sent.
import { refuseChannelSetup } from "../conversion-refusal.ts";

export { isVertexApiKey } from "../../../services/channels/key-formats.ts";

export type ServiceAccount = {
  clientEmail: string;
  privateKey: string;
  privateKeyId?: string;
  projectId: string;
  tokenUri: string;
};

const defaultTokenUri = "https://oauth2.googleapis.com/token";

const badKey = () => refuseChannelSetup("Vertex AI 渠道密钥不是可用的服务账号 JSON（需要 client_email、private_key 和 project_id）");

const text = (value: unknown) => (typeof value === "string" && value.trim() !== "" ? value : undefined);

export function parseServiceAccount(key: string): ServiceAccount {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(key);
  } catch {
    return badKey();
  }
  if (!parsed || typeof parsed !== "object") return badKey();
  const clientEmail = text(parsed.client_email);
  const privateKey = text(parsed.private_key);
  const projectId = text(parsed.project_id);
  if (!clientEmail || !privateKey || !projectId) return badKey();
  return {
    clientEmail,
    privateKey,
    privateKeyId: text(parsed.private_key_id),
    projectId,
    tokenUri: text(parsed.token_uri) ?? defaultTokenUri,
  };
}
