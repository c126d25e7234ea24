// What the request inspector may keep of a call, as pure functions: a body cut at its cap with a
// marker, the headers without anything that carries a credential, the path without a key in its
// query. Nothing here is on the relay's path unless a capture is on.

/** Bytes kept of each body (request, answer); the rest is cut. */
export const captureCapBytes = 256 * 1024;

/** The marker that ends a body cut at the cap (stored text, the same in every language). */
const cutMarker = (total: number, kept: number) => `\n…[cut: ${total} bytes in all, the first ${kept} kept]`;

const cutMarkerAtEnd = /\n…\[cut: \d+ bytes in all, the first \d+ kept\]$/;

/** Whether a kept body was cut at the cap. */
export function wasCut(text: string): boolean {
  return cutMarkerAtEnd.test(text);
}

const textualType = /json|text\/|x-www-form-urlencoded|event-stream|xml|javascript|ndjson/i;

/** Whether a body of this content type is kept as text (pictures, audio and files are not). */
function isTextual(contentType: string): boolean {
  return contentType === "" || textualType.test(contentType);
}

/** The note kept instead of a body that is not text. */
const binaryNote = (size: number, contentType: string) => `[${size} bytes of ${contentType || "binary data"}, not kept]`;

/**
 * The first `cap` bytes of a UTF-8 body (of `total` bytes, when only its start is at hand) as text, never splitting a character, with the marker
 * when it was longer.
 */
export function cutText(bytes: Uint8Array, cap = captureCapBytes, total = bytes.byteLength): string {
  if (total <= cap) return new TextDecoder().decode(bytes);
  let end = Math.min(cap, bytes.byteLength);
  // Step back over continuation bytes (10xxxxxx) so the cut falls between characters.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end)) + cutMarker(total, end);
}

/** A body as kept: its text cut at the cap, or a note when it is not text. */
export function keptBody(bytes: Uint8Array, contentType: string): string {
  if (bytes.byteLength === 0) return "";
  return isTextual(contentType) ? cutText(bytes) : binaryNote(bytes.byteLength, contentType);
}

// Any header naming a credential, whatever the vendor calls it: Authorization, Proxy-Authorization,
// x-api-key, api-key, x-goog-api-key, mj-api-secret, Cookie, session and signature headers...
const credentialHeader = /auth|key|secret|token|cookie|session|password|signature|credential/i;

/** The request's headers without any that may carry a credential, as one JSON object. */
export function keptHeaders(headers: Headers): Record<string, string> {
  const kept: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!credentialHeader.test(name)) kept[name] = value;
  });
  return kept;
}

/** The path and query of a URL without the query parameters that may carry a credential (Gemini's `key`). */
export function keptPath(url: string): string {
  const parsed = new URL(url);
  for (const name of [...parsed.searchParams.keys()]) if (credentialHeader.test(name)) parsed.searchParams.delete(name);
  const query = parsed.searchParams.toString();
  return parsed.pathname + (query ? `?${query}` : "");
}
