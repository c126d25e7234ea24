// Compressed answers for browsers (issue 26): console pages are compressed as they are sent,
// assets were compressed once when they were built (build/compress-assets.ts) and are only
// chosen here. The relay's answers are never compressed: a stream must reach the client event
// by event, and machine clients gain little from it.
//
// Levels (docs/PERFORMANCE.md, "Compressed answers"): a page is 17 to 130 KB of HTML; brotli at
// quality 5 and gzip at level 6 take well under a millisecond for most of them and give within
// a few percent of their best levels, which cost 5 to 100 times more CPU. Answers under 1 KB
// go as they are: they fit one packet either way.
import zlib from "node:zlib";
import Negotiator from "negotiator";

export type ContentEncoding = "br" | "gzip";

const offered = ["br", "gzip", "identity"];
const preferred = ["br", "gzip"];

/** negotiator 1.x takes a preference among equally accepted encodings; its published types predate it. */
type PreferringNegotiator = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

/** Smaller answers are sent as they are. */
const minimumCompressedBytes = 1024;

/** What the client accepts, br before gzip when it takes both (it compresses better). */
export function negotiateEncoding(acceptEncoding: string | null | undefined): ContentEncoding | undefined {
  if (!acceptEncoding) return undefined;
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding } }) as unknown as PreferringNegotiator;
  const chosen = negotiator.encoding(offered, { preferred });
  return chosen === "br" || chosen === "gzip" ? chosen : undefined;
}

/** A page's bytes at the levels pages are sent with (exported for bench/transfer-sizes.ts). */
export function compressPage(bytes: Uint8Array, encoding: ContentEncoding): Uint8Array<ArrayBuffer> {
  if (encoding === "gzip") return Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>, { level: 6 });
  return new Uint8Array(
    zlib.brotliCompressSync(bytes, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
      },
    }),
  );
}

/**
 * A text answer for a browser, compressed when the request accepts it and the text is worth it.
 * `Vary: Accept-Encoding` either way, so a cache never hands one client's encoding to another.
 */
export function compressedTextResponse(
  request: Request,
  text: string,
  init: { status: number; headers: Record<string, string> },
): Response {
  const headers: Record<string, string> = { ...init.headers, vary: "Accept-Encoding" };
  const encoding = negotiateEncoding(request.headers.get("accept-encoding"));
  if (!encoding) return new Response(text, { status: init.status, headers });
  const bytes = new TextEncoder().encode(text);
  if (bytes.byteLength < minimumCompressedBytes) return new Response(text, { status: init.status, headers });
  return new Response(compressPage(bytes, encoding), { status: init.status, headers: { ...headers, "content-encoding": encoding } });
}
