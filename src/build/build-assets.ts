// Builds the console's browser assets into build/public with content-hashed names:
//   - app-<hash>.css        Tailwind + daisyUI (tailwindcss CLI)
//   - console-<hash>.js     the small vanilla runtime every page loads (islands/console/)
//   - <name>.island-<hash>.js  one bundle per React island (islands/<name>/<name>.island.tsx),
//                              React itself split into a shared chunk
//   - htmx-<hash>.js        the partial-swap library, for pages that ask for it
// and writes build/manifest.json, which the server reads (or embeds, in the executable).
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, copyFileSync, writeFileSync, readFileSync } from "node:fs";
import { basename, join, relative } from "node:path";

export type AssetManifest = {
  css: string;
  scripts: { console: string; htmx: string };
  islands: Record<string, string>;
  /** Every file under build/public, by URL path. */
  files: string[];
};

const root = join(import.meta.dir, "..", "..");
export const buildDirectory = join(root, "build");
const publicOut = join(buildDirectory, "public");

function contentHash(path: string): string {
  return new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex").slice(0, 10);
}

function hashedCopy(source: string, stem: string, extension: string): string {
  const name = `${stem}-${contentHash(source)}.${extension}`;
  copyFileSync(source, join(publicOut, name));
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

async function buildCss(): Promise<string> {
  const temporary = join(buildDirectory, "app.css");
  const tailwind = Bun.spawnSync({
    cmd: [join(root, "node_modules", ".bin", "tailwindcss"), "-i", join(root, "src", "console", "styles", "app.css"), "-o", temporary, "--minify"],
    cwd: root,
    stdout: "pipe",
    stderr: "pipe",
  });
  if (tailwind.exitCode !== 0) throw new Error(`tailwindcss failed: ${tailwind.stderr.toString()}`);
  return hashedCopy(temporary, "app", "css");
}

async function buildScripts(): Promise<{ console: string; islands: Record<string, string> }> {
  const islands = islandEntries();
  const consoleEntry = join(root, "islands", "console", "console-runtime.ts");
  const result = await Bun.build({
    entrypoints: [consoleEntry, ...Object.values(islands)],
    outdir: publicOut,
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

export async function buildAssets(): Promise<AssetManifest> {
  rmSync(publicOut, { recursive: true, force: true });
  mkdirSync(publicOut, { recursive: true });
  const css = await buildCss();
  const scripts = await buildScripts();
  const htmx = hashedCopy(join(root, "node_modules", "htmx.org", "dist", "htmx.min.js"), "htmx", "js");
  for (const file of readdirSync(join(root, "public"))) {
    if (statSync(join(root, "public", file)).isFile()) copyFileSync(join(root, "public", file), join(publicOut, file));
  }
  const url = (name: string) => `/assets/${name}`;
  const manifest: AssetManifest = {
    css: url(css),
    scripts: { console: url(scripts.console), htmx: url(htmx) },
    islands: Object.fromEntries(Object.entries(scripts.islands).map(([name, file]) => [name, url(file)])),
    files: readdirSync(publicOut).map((file) => `/${relative(publicOut, join(publicOut, file))}`),
  };
  writeFileSync(join(buildDirectory, "manifest.json"), JSON.stringify(manifest, null, 2));
  return manifest;
}

/** The newest modification time among the files the assets are built from. */
export function newestSourceTime(): number {
  let newest = 0;
  const visit = (path: string) => {
    if (!existsSync(path)) return;
    const stats = statSync(path);
    if (stats.isDirectory()) {
      for (const entry of readdirSync(path)) visit(join(path, entry));
    } else if (stats.mtimeMs > newest) newest = stats.mtimeMs;
  };
  for (const folder of ["src/console", "islands", "public", "src/i18n"]) visit(join(root, folder));
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
