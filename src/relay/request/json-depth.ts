// How deeply a JSON body nests, read from its bytes before it is parsed. JSON.parse accepts a
// million nested brackets, but everything after it that walks the value (JSON.stringify when a
// body is adapted, the prompt's texts) recurses and overflows the stack, which would answer 500.
// Strings are skipped with the native byte search, so a body that is mostly one long base64
// string costs almost nothing here.

/** Deeper than any real request (a tool's JSON schema nests a few dozen levels at most). */
export const maxJsonDepth = 128;

const quote = 0x22;
const backslash = 0x5c;

/** False when the brackets of `bytes` nest deeper than `limit` (malformed JSON is left to the parser). */
export function jsonDepthWithin(bytes: Uint8Array, limit = maxJsonDepth): boolean {
  let depth = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === quote) {
      let end = i;
      for (;;) {
        end = bytes.indexOf(quote, end + 1);
        if (end < 0) return true;
        let escapes = 0;
        while (bytes[end - 1 - escapes] === backslash) escapes++;
        if (escapes % 2 === 0) break;
      }
      i = end;
    } else if (byte === 0x5b || byte === 0x7b) {
      if (++depth > limit) return false;
    } else if (byte === 0x5d || byte === 0x7d) {
      depth--;
    }
  }
  return true;
}
