// Zhipu's request token (open.bigmodel.cn "鉴权"): the API key is `id.secret`; the client signs a
// JWT with HS256 over the secret, header {"alg":"HS256","sign_type":"SIGN"} and claims
// {api_key: id, exp, timestamp} in milliseconds. The signing is pure (time passed in); tokens are
// kept per key and reused until five minutes before they expire, so calls do not sign each time.
import { nowMs } from "../../../clock.ts";

const lifetimeMs = 30 * 60_000;
const renewMarginMs = 5 * 60_000;

const base64url = (text: string) => Buffer.from(text).toString("base64url");

/** `id.secret`, split at the first dot. */
function zhipuKeyParts(key: string): { id: string; secret: string } {
  const dot = key.indexOf(".");
  return dot < 0 ? { id: key, secret: "" } : { id: key.slice(0, dot), secret: key.slice(dot + 1) };
}

export function signZhipuJwt(key: string, issuedAtMs: number, expiresAtMs: number): string {
  const { id, secret } = zhipuKeyParts(key);
  const header = base64url(JSON.stringify({ alg: "HS256", sign_type: "SIGN" }));
  const claims = base64url(JSON.stringify({ api_key: id, exp: expiresAtMs, timestamp: issuedAtMs }));
  const signature = new Bun.CryptoHasher("sha256", secret).update(`${header}.${claims}`).digest("base64url");
  return `${header}.${claims}.${signature}`;
}

const cache = new Map<string, { token: string; expiresAtMs: number }>();

/** A valid token for the key: the cached one, or a newly signed one. */
export function zhipuToken(key: string): string {
  const now = nowMs();
  const known = cache.get(key);
  if (known && known.expiresAtMs - renewMarginMs > now) return known.token;
  for (const [cachedKey, entry] of cache) if (entry.expiresAtMs - renewMarginMs <= now) cache.delete(cachedKey);
  const expiresAtMs = now + lifetimeMs;
  const token = signZhipuJwt(key, now, expiresAtMs);
  cache.set(key, { token, expiresAtMs });
  return token;
}
