// What a build records about itself for `switchyard --version`: the commit it was built from
// (with "-dirty" when the work tree had uncommitted changes) and when. The values reach the
// executable as `--define` constants (src/version.ts reads them). SOURCE_DATE_EPOCH, when set,
// fixes the date, so two builds of one commit can be compared byte for byte.
import { join } from "node:path";
import type { ExecutableTarget } from "./executable-targets.ts";

const root = join(import.meta.dir, "..", "..");

export type BuildStamp = { commit: string; builtAt: string };

function git(...args: string[]): string | undefined {
  try {
    const result = Bun.spawnSync({ cmd: ["git", ...args], cwd: root, stdout: "pipe", stderr: "ignore" });
    return result.exitCode === 0 ? result.stdout.toString().trim() : undefined;
  } catch {
    return undefined; // no git on this machine
  }
}

export function currentBuildStamp(): BuildStamp {
  const head = git("rev-parse", "--short=12", "HEAD");
  const changes = head === undefined ? "" : (git("status", "--porcelain", "--untracked-files=no") ?? "");
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  const date = Number.isInteger(epoch) && epoch > 0 ? new Date(epoch * 1000) : new Date();
  return {
    commit: head === undefined ? "unknown" : head + (changes ? "-dirty" : ""),
    builtAt: date.toISOString().replace(/\.\d+Z$/, "Z"),
  };
}

/** The `bun build` arguments that put the stamp and the target into the executable. */
export function buildStampDefines(stamp: BuildStamp, target: ExecutableTarget): string[] {
  return [
    ["SWITCHYARD_COMMIT", stamp.commit],
    ["SWITCHYARD_BUILT_AT", stamp.builtAt],
    ["SWITCHYARD_TARGET", target],
  ].flatMap(([name, value]) => ["--define", `${name}=${JSON.stringify(value)}`]);
}
