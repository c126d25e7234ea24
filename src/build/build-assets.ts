// Builds the console's browser assets into build/public with content-hashed names:
//   - app-<hash>.css        Tailwind + daisyUI (tailwindcss CLI)
//   - console-<hash>.js     the small vanilla runtime every page loads (console-runtime/)
//   - <name>.island-<hash>.js  one bundle per island (islands/<name>/<name>.island.tsx), React
//                              itself split into a shared chunk; a page loads those it rendered
//   - htmx-<hash>.js        the partial-swap library, for pages that ask for it
// each text file with its brotli and gzip forms beside it (<file>.br, <file>.gz, compress-assets.ts),
// and writes build/manifest.json, which the server reads (or embeds, in the executable).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  copyFileSync,
  writeFileSync,
  readFileSync,
} from "node:fs";
import { basename, join } from "node:path";
import type { ContentEncoding } from "../http/compression.ts";
import { compressAssets } from "./compress-assets.ts";

export type AssetManifest = {
  css: string;
  scripts: { console: string; htmx: string };
  islands: Record<string, string>;
  /** Every file under build/public, by URL path (the compressed variants aside). */
  files: string[];
  /** The variants each file has beside it, compressed at build time (compress-assets.ts). */
  compressed: Record<string, ContentEncoding[]>;
};

const root = join(import.meta.dir, "..", "..");
export const buildDirectory = join(root, "build");
const publicOut = join(buildDirectory, "public");

function contentHash(path: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex").slice(0, 10);
}

function hashedCopy(source: string, stem: string, extension: string, out: string): string {
  const name = `${stem}-${contentHash(source)}.${extension}`;
  copyFileSync(source, join(out, name));
  return name;
}

function islandEntries(): Record<string, string> {
  const islandsRoot = join(root, "islands");
  const entries: Record<string, string> = {};
  for (const folder of readdirSync(islandsRoot)) {
    const entry = join(islandsRoot, folder, `${folder}.island.tsx`);
    if (existsSync(entry)) entries[folder] = entry;
  }
  return entries;
}

async function buildCss(out: string): Promise<string> {
  const temporary = `${out}.app.css`;
  const tailwind = Bun.spawnSync({
    cmd: [
      join(root, "node_modules", ".bin", "tailwindcss"),
      "-i",
      join(root, "src", "console", "styles", "app.css"),
      "-o",
      temporary,
      "--minify",
    ],
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (tailwind.exitCode !== 0) throw new Error(`tailwindcss failed: ${tailwind.stderr.toString()}`);
  try {
    return hashedCopy(temporary, "app", "css", out);
  } finally {
    rmSync(temporary, { force: true });
  }
}

async function buildScripts(out: string): Promise<{ console: string; islands: Record<string, string> }> {
  const islands = islandEntries();
  const consoleEntry = join(root, "console-runtime", "console-runtime.ts");
  const result = await Bun.build({
    entrypoints: [consoleEntry, ...Object.values(islands)],
    outdir: out,
    naming: { entry: "[name]-[hash].[ext]", chunk: "chunk-[hash].[ext]", asset: "[name]-[hash].[ext]" },
    target: "browser",
    format: "esm",
    splitting: true,
    minify: true,
    define: { "process.env.NODE_ENV": JSON.stringify("production") },
  });
  if (!result.success) throw new Error(`Bun.build failed:\n${result.logs.map(String).join("\n")}`);
  const outputFor = (entry: string) => {
    const stem = basename(entry).replace(/\.(tsx|ts)$/, "");
    const output = result.outputs.find((o) => o.kind === "entry-point" && basename(o.path).startsWith(`${stem}-`));
    if (!output) throw new Error(`no bundle for ${entry}`);
    return basename(output.path);
  };
  return {
    console: outputFor(consoleEntry),
    islands: Object.fromEntries(Object.entries(islands).map(([name, entry]) => [name, outputFor(entry)])),
  };
}

/**
 * Builds into a staging folder, then moves each file into build/public (a rename: a server
 * reading a file sees the old one or the new one, whole) and the manifest last. Servers serve
 * build/public while another build runs (the test run builds the executable beside the browser
 * suites); emptying the folder first had them answer 404 for the console's script, and a sign-in
 * form without its script was sent by the browser as a GET with the password in the address.
 */
export async function buildAssets(): Promise<AssetManifest> {
  mkdirSync(buildDirectory, { recursive: true });
  const staging = mkdtempSync(join(buildDirectory, "public-"));
  try {
    const css = await buildCss(staging);
    const scripts = await buildScripts(staging);
    const htmx = hashedCopy(join(root, "node_modules", "htmx.org", "dist", "htmx.min.js"), "htmx", "js", staging);
    for (const file of readdirSync(join(root, "public"))) {
      if (statSync(join(root, "public", file)).isFile()) copyFileSync(join(root, "public", file), join(staging, file));
    }
    const url = (name: string) => `/assets/${name}`;
    const files = readdirSync(staging).map((file) => `/${file}`);
    const manifest: AssetManifest = {
      css: url(css),
      scripts: { console: url(scripts.console), htmx: url(htmx) },
      islands: Object.fromEntries(Object.entries(scripts.islands).map(([name, file]) => [name, url(file)])),
      files,
      compressed: await compressAssets(staging, files),
    };
    publish(staging);
    const manifestPath = join(buildDirectory, "manifest.json");
    writeFileSync(`${staging}.manifest.json`, JSON.stringify(manifest, null, 2));
    renameSync(`${staging}.manifest.json`, manifestPath);
    return manifest;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Moves the staged files into build/public one by one, then drops what the new build no longer has. */
function publish(staging: string): void {
  mkdirSync(publicOut, { recursive: true });
  const built = new Set(readdirSync(staging));
  for (const file of built) renameSync(join(staging, file), join(publicOut, file));
  for (const file of readdirSync(publicOut)) if (!built.has(file)) rmSync(join(publicOut, file), { recursive: true, force: true });
}

/** The newest modification time among the files the assets are built from. */
function newestSourceTime(): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stats.mtimeMs > newest) newest = stats.mtimeMs;
  };
  for (const folder of ["src/console", "console-runtime", "islands", "public", "src/i18n"]) visit(join(root, folder));
  return newest;
}

/** Rebuilds when any source is newer than the last manifest (npm start). */
export async function buildAssetsIfStale(): Promise<boolean> {
  const manifestPath = join(buildDirectory, "manifest.json");
  if (existsSync(manifestPath) && statSync(manifestPath).mtimeMs >= newestSourceTime()) return false;
  await buildAssets();
  return true;
}

if (import.meta.main) {
  const started = performance.now();
  await buildAssets();
  console.log(`assets built in ${Math.round(performance.now() - started)} ms`);
}
