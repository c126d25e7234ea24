// Compresses the built assets once, at build time, at the strongest levels (brotli 11, gzip 9):
// every browser then gets the smallest file without the server spending CPU per request. Each
// variant sits beside its file (app-1a2b.css.br, app-1a2b.css.gz) and is embedded in the
// executable like it; the server only picks one (console/assets/asset-routes.ts).
import { promisify } from "node:util";
import zlib from "node:zlib";
import { readFileSync, writeFileSync } from "node:fs";
import { extname, join } from "node:path";
import type { ContentEncoding } from "../http/compression.ts";

/** Text formats compress; images (other than SVG) and fonts are compressed already. */
const compressible = new Set([".js", ".css", ".svg", ".json", ".map", ".txt", ".html"]);

/** A variant is kept only when it saves at least this share of the file. */
const worthwhile = 0.9;

export const variantSuffix: Record<ContentEncoding, string> = { br: ".br", gzip: ".gz" };

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

function compressorFor(encoding: ContentEncoding, bytes: Buffer): Promise<Buffer> {
  if (encoding === "gzip") return gzip(bytes, { level: 9 });
  return brotli(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.byteLength,
    },
  });
}

/**
 * Writes the variants of every compressible file of `folder` (names as URL paths, "/app.css")
 * and says which each file has. Runs the compressions side by side (zlib's thread pool).
 */
export async function compressAssets(folder: string, files: readonly string[]): Promise<Record<string, ContentEncoding[]>> {
  const made = new Map<string, Set<ContentEncoding>>();
  const jobs: Promise<void>[] = [];
  for (const file of files) {
    if (!compressible.has(extname(file))) continue;
    const path = join(folder, file);
    const bytes = readFileSync(path);
    if (bytes.byteLength < 1024) continue;
    for (const encoding of ["br", "gzip"] as const) {
      jobs.push(
        compressorFor(encoding, bytes).then((compressed) => {
          if (compressed.byteLength > bytes.byteLength * worthwhile) return;
          writeFileSync(path + variantSuffix[encoding], compressed);
          made.set(file, (made.get(file) ?? new Set()).add(encoding));
        }),
      );
    }
  }
  await Promise.all(jobs);
  // In the files' order, so the manifest is the same for the same build.
  const variants: Record<string, ContentEncoding[]> = {};
  for (const file of files) {
    const encodings = made.get(file);
    if (encodings) variants[file] = [...encodings].sort();
  }
  return variants;
}
