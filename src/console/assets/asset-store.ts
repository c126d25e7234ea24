// Where the built browser assets come from: the build/ folder next to the sources (npm start,
// tests), or files embedded in the executable (npm run build). Either way pages ask for URLs
// through assetManifest() and /assets/* serves the bytes.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AssetManifest } from "../../build/build-assets.ts";

let manifest: AssetManifest | undefined;
const filePaths = new Map<string, string>();

/** Called by the executable's entry before main runs: url path -> embedded file path. */
export function useEmbeddedAssets(embeddedManifest: AssetManifest, embeddedFiles: Record<string, string>): void {
  manifest = embeddedManifest;
  for (const [url, path] of Object.entries(embeddedFiles)) filePaths.set(url, path);
}

export function useDiskAssets(buildDirectory: string): void {
  if (manifest) return; // embedded assets win
  const manifestPath = join(buildDirectory, "manifest.json");
  if (!existsSync(manifestPath)) {
    throw new Error("console assets are not built: run `npm start` (or `bun src/build/build-assets.ts`) first");
  }
  manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as AssetManifest;
  for (const file of manifest.files) filePaths.set(file, join(buildDirectory, "public", file));
}

export function assetManifest(): AssetManifest {
  if (!manifest) throw new Error("assets not loaded");
  return manifest;
}

/** The file behind a URL path such as /assets/app-1a2b.css or /favicon.ico. */
export function assetFilePath(urlPath: string): string | undefined {
  const name = urlPath.startsWith("/assets/") ? urlPath.slice("/assets".length) : urlPath;
  return filePaths.get(name);
}
