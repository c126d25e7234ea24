// Reads the relay key of a request (new-api middleware/auth.go): "Authorization: Bearer sk-…",
// the Bearer word and the sk- prefix both optional; Midjourney clients may use mj-api-secret.
// "sk-<key>-<channelId>" pins a channel (admins only, checked by the caller).
export type ApiKey = { key: string; pinnedChannel?: string };

function stripBearer(value: string): string {
  const trimmed = value.trim();
  if (/^bearer$/i.test(trimmed)) return "";
  return /^bearer\s/i.test(trimmed) ? trimmed.slice(7).trim() : trimmed;
}

/**
 * @param keyText the key as a native format carries it (Anthropic's x-api-key, Google's
 *   x-goog-api-key or ?key=), read instead of the headers when present.
 */
export function readApiKey(headers: Headers, keyText?: string): ApiKey {
  let value = keyText === undefined ? stripBearer(headers.get("authorization") ?? "") : keyText.trim();
  if (value === "" || value === "midjourney-proxy") value = stripBearer(headers.get("mj-api-secret") ?? "");
  if (value.startsWith("sk-")) value = value.slice(3);
  // Keys are alphanumeric, so a dash can only introduce the pinned channel id.
  const dash = value.indexOf("-");
  if (dash < 0) return { key: value };
  return { key: value.slice(0, dash), pinnedChannel: value.slice(dash + 1) };
}

/** sk-abc***xyz: enough to recognise a key in a message without revealing it. */
export function maskKey(key: string): string {
  return key.length <= 6 ? "sk-***" : `sk-${key.slice(0, 3)}***${key.slice(-3)}`;
}
