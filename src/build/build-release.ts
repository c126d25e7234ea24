// `npm run release`: the executable of `npm run build`, compiled with the same entry and options
// (build-executable.ts) for every platform we ship, into dist/release/ with a SHA256SUMS file in
// the format `sha256sum -c` reads. Bun fetches each target's runtime from the npm registry once
// and keeps it in its cache.
//
// A fingerprint of what went in (sources, lock file, Bun's version, the commit) is kept beside
// the folder, so `npm test` reuses a release built from the same source instead of compiling six
// files again (buildRelease({ reuse: true })).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { currentBuildStamp } from "./build-stamp.ts";
import { compileExecutable, compileOptions, prepareExecutableEntry } from "./build-executable.ts";
import { releaseFileName, releaseTargets } from "./executable-targets.ts";

const root = join(import.meta.dir, "..", "..");
const releaseDirectory = join(root, "dist", "release");
const fingerprintFile = join(root, "dist", ".release-fingerprint");

/** Folders and files whose contents end up in the executable. */
const sourceFolders = ["src", "console-runtime", "islands", "public", "drizzle"];
const sourceFiles = ["package.json", "package-lock.json", "bunfig.toml", "tsconfig.json"];

function* filesUnder(folder: string): Generator<string> {
  for (const name of readdirSync(folder).sort()) {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

function releaseSourceFingerprint(commit: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(`bun ${Bun.version}\ncommit ${commit}\noptions ${compileOptions.join(" ")}\ntargets ${releaseTargets.join(" ")}\n`);
  const paths = [
    ...sourceFolders.filter((folder) => existsSync(join(root, folder))).flatMap((folder) => [...filesUnder(join(root, folder))]),
    ...sourceFiles.map((file) => join(root, file)).filter((path) => existsSync(path)),
  ];
  for (const path of paths) {
    hasher.update(`${relative(root, path)}\n`);
    hasher.update(readFileSync(path));
  }
  return hasher.digest("hex");
}

function sha256File(path: string): string {
  const hasher = new Bun.CryptoHasher("sha256");
  hasher.update(readFileSync(path));
  return hasher.digest("hex");
}

export type Release = { folder: string; files: string[]; reused: boolean; seconds: number };

function releaseIsComplete(): boolean {
  return (
    existsSync(join(releaseDirectory, "SHA256SUMS")) &&
    releaseTargets.every((target) => existsSync(join(releaseDirectory, releaseFileName(target))))
  );
}

export async function buildRelease(options: { reuse?: boolean; log?: (line: string) => void } = {}): Promise<Release> {
  const started = performance.now();
  const log = options.log ?? (() => {});
  const stamp = currentBuildStamp();
  const fingerprint = releaseSourceFingerprint(stamp.commit);
  const files = releaseTargets.map(releaseFileName);
  if (options.reuse && releaseIsComplete() && existsSync(fingerprintFile) && readFileSync(fingerprintFile, "utf8").trim() === fingerprint) {
    log("dist/release/ was built from this source: reused");
    return { folder: releaseDirectory, files, reused: true, seconds: (performance.now() - started) / 1000 };
  }
  rmSync(fingerprintFile, { force: true });
  rmSync(releaseDirectory, { recursive: true, force: true });
  mkdirSync(releaseDirectory, { recursive: true });
  const entry = await prepareExecutableEntry();
  // Each target compiles in a folder of its own: bun writes a source map beside the file, which
  // is embedded in the executable anyway and is not shipped.
  const scratch = mkdtempSync(join(root, "dist", ".release-"));
  try {
    for (const target of releaseTargets) {
      const targetStarted = performance.now();
      const name = releaseFileName(target);
      const built = compileExecutable(entry, { outfile: join(scratch, target, name), target, stamp });
      renameSync(built, join(releaseDirectory, name));
      log(`built ${name} in ${((performance.now() - targetStarted) / 1000).toFixed(1)} s`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const sums = files.map((name) => `${sha256File(join(releaseDirectory, name))}  ${name}\n`).join("");
  writeFileSync(join(releaseDirectory, "SHA256SUMS"), sums);
  writeFileSync(fingerprintFile, `${fingerprint}\n`);
  return { folder: releaseDirectory, files, reused: false, seconds: (performance.now() - started) / 1000 };
}

if (import.meta.main) {
  const release = await buildRelease({ log: (line) => console.log(line) });
  for (const name of [...release.files, "SHA256SUMS"]) {
    const size = Bun.file(join(release.folder, name)).size;
    console.log(`  ${relative(root, join(release.folder, name))}  ${(size / 1024 / 1024).toFixed(1)} MB`);
  }
  console.log(`release written in ${release.seconds.toFixed(1)} s (commit ${currentBuildStamp().commit})`);
}
