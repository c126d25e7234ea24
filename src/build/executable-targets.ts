// The platforms the gateway ships for, as Bun's `--target=bun-<name>` names them, and the file
// name each gets in a release. Since Bun 1.4 the x64 runtime targets Nehalem (SSE4.2) and picks
// AVX2 code paths at run time, so `-baseline` resolves to the same runtime: the baseline file is
// kept under its own name for the download scripts and guides that look for it.
export type ExecutableTarget = "linux-x64" | "linux-x64-baseline" | "linux-arm64" | "darwin-arm64" | "darwin-x64" | "windows-x64";

export const releaseTargets: readonly ExecutableTarget[] = [
  "linux-x64",
  "linux-x64-baseline",
  "linux-arm64",
  "darwin-arm64",
  "darwin-x64",
  "windows-x64",
];

export function releaseFileName(target: ExecutableTarget): string {
  return `switchyard-${target}${target.startsWith("windows-") ? ".exe" : ""}`;
}

/** The target of the machine that builds: what `npm run build` makes. */
export function hostTarget(): ExecutableTarget {
  const target = `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`;
  if (!(releaseTargets as readonly string[]).includes(target)) throw new Error(`no executable target for ${target}`);
  return target as ExecutableTarget;
}
