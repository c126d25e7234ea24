// `npm run release` (src/build/build-release.ts): six executables and SHA256SUMS in dist/release/.
// Each file is checked for the format its system loads (its own headers, no `file` command),
// the sums verify with coreutils' `sha256sum -c` as the README tells self-hosters, and the x64
// files, which run here, print their version, commit, target and build date. The arm64 file runs
// under emulation in arm64-emulated.test.ts.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { currentBuildStamp } from "../../src/build/build-stamp.ts";
import { releaseFileName, releaseTargets, type ExecutableTarget } from "../../src/build/executable-targets.ts";
import { executableFormat, type ExecutableFormat } from "../helpers/executable-format.ts";
import { releaseFolder } from "../helpers/release-files.ts";

let folder: string;

beforeAll(async () => {
  folder = await releaseFolder();
}, 600_000);

const expectedFormat: Record<ExecutableTarget, ExecutableFormat> = {
  "linux-x64": {
    kind: "elf",
    bits: 64,
    littleEndian: true,
    type: "executable",
    machine: "x86-64",
    interpreter: "/lib64/ld-linux-x86-64.so.2",
  },
  "linux-x64-baseline": {
    kind: "elf",
    bits: 64,
    littleEndian: true,
    type: "executable",
    machine: "x86-64",
    interpreter: "/lib64/ld-linux-x86-64.so.2",
  },
  "linux-arm64": {
    kind: "elf",
    bits: 64,
    littleEndian: true,
    type: "executable",
    machine: "aarch64",
    interpreter: "/lib/ld-linux-aarch64.so.1",
  },
  // Apple silicon runs nothing whose signature does not match: Bun signs this one ad hoc.
  "darwin-arm64": { kind: "mach-o", bits: 64, cpu: "arm64", type: "executable", signature: "valid" },
  // Bun 1.4.5 leaves the x64 runtime's own signature in place, which the embedded server no
  // longer matches; README ("macOS") gives the one-line re-signing. When a Bun release signs it,
  // this says "valid": then drop that step from README.
  "darwin-x64": { kind: "mach-o", bits: 64, cpu: "x86-64", type: "executable", signature: "invalid" },
  // A console program, so a double-click shows its log (and the setup code) in a window.
  "windows-x64": { kind: "pe", machine: "x86-64", pe32plus: true, subsystem: "console" },
};

describe("dist/release", () => {
  test("holds the six executables and SHA256SUMS, nothing else", () => {
    expect(readdirSync(folder).sort()).toEqual(
      [
        "SHA256SUMS",
        "switchyard-darwin-arm64",
        "switchyard-darwin-x64",
        "switchyard-linux-arm64",
        "switchyard-linux-x64",
        "switchyard-linux-x64-baseline",
        "switchyard-windows-x64.exe",
      ].sort(),
    );
  });

  test("SHA256SUMS covers each file once and verifies with sha256sum -c", () => {
    const lines = readFileSync(join(folder, "SHA256SUMS"), "utf8").trimEnd().split("\n");
    const sums = new Map(lines.map((line) => [line.slice(66), line.slice(0, 64)]));
    expect([...sums.keys()].sort()).toEqual(releaseTargets.map(releaseFileName).sort());
    expect([...sums.values()].every((sum) => /^[0-9a-f]{64}$/.test(sum))).toBe(true);
    const check = Bun.spawnSync({ cmd: ["sha256sum", "-c", "SHA256SUMS"], cwd: folder, stdout: "pipe", stderr: "pipe" });
    expect(check.stderr.toString()).toBe("");
    expect(check.stdout.toString().trim().split("\n").sort()).toEqual(
      releaseTargets.map((target) => `${releaseFileName(target)}: OK`).sort(),
    );
  });

  for (const target of releaseTargets) {
    test(`${releaseFileName(target)} is a ${target} executable carrying its own target and commit`, () => {
      const path = join(folder, releaseFileName(target));
      expect(executableFormat(path)).toEqual(expectedFormat[target]);
      // The build stamp (src/version.ts) is compiled in: the right target, this source's commit.
      // The embedded source is Latin-1 or, once it holds other characters, UTF-16: look for either.
      const contents = readFileSync(path);
      const embedded = (text: string) => contents.includes(text) || contents.includes(Buffer.from(text, "utf16le"));
      expect(embedded(`"${target}"`)).toBe(true);
      expect(embedded(`"${currentBuildStamp().commit}"`)).toBe(true);
    });
  }

  for (const target of ["linux-x64", "linux-x64-baseline"] as const) {
    test(`${releaseFileName(target)} --version: version, commit, target and build date`, () => {
      const run = Bun.spawnSync({ cmd: [join(folder, releaseFileName(target)), "--version"], env: { PATH: "/usr/bin:/bin" } });
      const line = run.stdout.toString().trim();
      const version = JSON.parse(readFileSync(join(import.meta.dir, "..", "..", "package.json"), "utf8")).version as string;
      const match = /^switchyard (\S+), commit (\S+), target (\S+), built (\S+)$/.exec(line);
      expect(match?.slice(1, 4)).toEqual([version, currentBuildStamp().commit, target]);
      expect(new Date(match![4]!).toISOString().replace(".000Z", "Z")).toBe(match![4]!);
    });
  }
});
