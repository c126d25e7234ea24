// Where the built browser assets come from: the build/ folder next to the sources (npm start,
// tests), or files embedded in the executable (npm run build). Either way pages ask for URLs
// through assetManifest() and /assets/* serves the bytes, or their brotli or gzip form made at
// build time (build/compress-assets.ts) when the browser takes it.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AssetManifest } from "../../build/build-assets.ts";
import { variantSuffix } from "../../build/compress-assets.ts";
import type { ContentEncoding } from "../../http/compression.ts";

let manifest: AssetManifest | undefined;
const filePaths = new Map<string, string>();
/** url path -> its compressed forms' file paths. */
const variantPaths = new Map<string, Partial<Record<ContentEncoding, string>>>();

function addVariants(locate: (name: string) => string | undefined): void {
  for (const [file, encodings] of Object.entries(manifest?.compressed ?? {})) {
    const paths: Partial<Record<ContentEncoding, string>> = {};
    for (const encoding of encodings) {
      const path = locate(file + variantSuffix[encoding]);
      if (path) paths[encoding] = path;
    }
    variantPaths.set(file, paths);
  }
}

/** Called by the executable's entry before main runs: url path -> embedded file path. */
export function useEmbeddedAssets(embeddedManifest: AssetManifest, embeddedFiles: Record<string, string>): void {
  manifest = embeddedManifest;
  for (const file of embeddedManifest.files) {
    const path = embeddedFiles[file];
    if (path) filePaths.set(file, path);
  }
  addVariants((name) => embeddedFiles[name]);
}

export function useDiskAssets(buildDirectory: string): void {
  if (manifest) return; // embedded assets win
  const manifestPath = join(buildDirectory, "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new Error("console assets are not built: run `npm start` (or `bun src/build/build-assets.ts`) first");
  }
  manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as AssetManifest;
  for (const file of manifest.files) filePaths.set(file, join(buildDirectory, "public", file));
  addVariants((name) => join(buildDirectory, "public", name));
}

export function assetManifest(): AssetManifest {
  if (!manifest) throw new Error("assets not loaded");
  return manifest;
}

const nameOf = (urlPath: string) => (urlPath.startsWith("/assets/") ? urlPath.slice("/assets".length) : urlPath);

/** The file behind a URL path such as /assets/app-1a2b.css or /favicon.ico. */
export function assetFilePath(urlPath: string): string | undefined {
  return filePaths.get(nameOf(urlPath));
}

/** The compressed forms built for that file (none for images, or when compressing saved little). */
export function assetVariants(urlPath: string): Partial<Record<ContentEncoding, string>> | undefined {
  return variantPaths.get(nameOf(urlPath));
}
