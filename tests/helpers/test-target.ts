// What the suites run: the sources (`bun src/main.ts`, the default) or the shipped form, the
// executable built by `npm run build` and copied alone into an empty folder
// (TEST_TARGET=executable). `npm test` builds the executable once and passes its path in
// TEST_EXECUTABLE; a suite run on its own with TEST_TARGET=executable builds it once per process.
import { chmodSync, copyFileSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { buildExecutable } from "../../src/build/build-executable.ts";

const root = join(import.meta.dir, "..", "..");

export type TestTarget = "source" | "executable";

export function testTarget(): TestTarget {
  const target = process.env.TEST_TARGET ?? "source";
  if (target !== "source" && target !== "executable") throw new Error(`TEST_TARGET must be source or executable, not ${target}`);
  return target;
}

/** How to start the server: the command, and the folder it runs in. */
export type ServerCommand = { cmd: string[]; cwd: string };

let built: Promise<string> | undefined;

/**
 * Builds the executable into a temporary folder and copies it alone into another, empty one:
 * whatever the server needs at run time must be inside the file. Returns the copy's path.
 */
export async function buildExecutableAlone(): Promise<string> {
  removeLeftovers();
  const buildFolder = mkdtempSync(join(tmpdir(), "switchyard-build-"));
  try {
    const output = await buildExecutable(join(buildFolder, "switchyard"));
    const runFolder = mkdtempSync(join(tmpdir(), `${folderPrefix}${process.pid}-`));
    const executable = join(runFolder, "switchyard");
    copyFileSync(output, executable);
    chmodSync(executable, 0o755);
    return executable;
  } finally {
    rmSync(buildFolder, { recursive: true, force: true });
  }
}

/** The executable under test: TEST_EXECUTABLE, else built once for this process. */
export async function executablePath(): Promise<string> {
  const given = process.env.TEST_EXECUTABLE;
  if (given) return given;
  built ??= buildExecutableAlone();
  return built;
}

const folderPrefix = "switchyard-exe-";

/**
 * bun test runs no exit hooks, so a copy built for one test process stays behind; its folder
 * carries the process id, and the next build removes those whose process has ended.
 */
function removeLeftovers(): void {
  for (const name of readdirSync(tmpdir())) {
    const pid = Number(new RegExp(`^${folderPrefix}(\\d+)-`).exec(name)?.[1]);
    if (!pid || pid === process.pid) continue;
    try {
      process.kill(pid, 0);
    } catch {
      rmSync(join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

export async function serverCommand(): Promise<ServerCommand> {
  if (testTarget() === "source") return { cmd: [process.execPath, join(root, "src", "main.ts")], cwd: root };
  const executable = await executablePath();
  const folder = dirname(executable);
  // The folder holds the executable and nothing else (suites give every server its own store
  // path); anything more would be something the server might be reading instead of its own.
  const stray = readdirSync(folder).filter((name) => name !== "switchyard" && name !== "data");
  if (stray.length) throw new Error(`the executable's folder is not empty: ${stray.join(", ")}`);
  return { cmd: [executable], cwd: folder };
}
