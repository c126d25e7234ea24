// Runtime settings Bun reads only from the environment it starts with, which the process sets for
// itself so that no operator has to know them:
//
//   BUN_CONFIG_MAX_HTTP_REQUESTS  fetch lets this many requests be in flight per process (256 by
//     default); the rest wait in a queue nobody sees, so the 257th concurrent stream would wait
//     for another to end before its upstream call even starts. The gateway relays thousands.
//   BUN_JSC_forceRAMSize  JavaScriptCore paces its garbage collections by the machine's memory;
//     on a large machine garbage piles up to hundreds of megabytes between collections. Sized
//     for 512 MB, the collector runs sooner: under load the process stays about 50 MB smaller,
//     at no measurable CPU cost (docs/PERFORMANCE.md). It is pacing, not a limit: the heap
//     still grows as far as live data needs.
//
// Bun reads it once, while starting (setting process.env later changes nothing), so when it is
// missing the process replaces itself with the same program, arguments and pid, and the setting
// added (execve: supervisors, signals and the pid file see one process). A value the operator
// set is kept. Costs one more start of the runtime, a few milliseconds.
import { readFileSync } from "node:fs";

const wanted: Record<string, string> = {
  // The most Bun accepts (a 16-bit number); nothing is allocated per slot.
  BUN_CONFIG_MAX_HTTP_REQUESTS: "65535",
  BUN_JSC_forceRAMSize: String(512 * 1024 * 1024),
};

/** The exact command line this process was started with (Linux), else Bun's view of it (macOS). */
function commandLine(): string[] {
  try {
    const raw = readFileSync("/proc/self/cmdline", "utf8");
    const parts = raw.split("\0");
    if (parts.at(-1) === "") parts.pop();
    if (parts.length > 0) return parts;
  } catch {
    // not Linux
  }
  return commandLineFromArgv(process, Bun.isStandaloneExecutable);
}

/**
 * The command line as Bun reports it. A compiled executable's argv is ["bun", its virtual entry
 * (/$bunfs/root/...), ...arguments]: the entry is not an argument, and passed on it would be
 * read as an unknown one.
 */
export function commandLineFromArgv(running: { execPath: string; execArgv: string[]; argv: string[] }, standalone: boolean): string[] {
  if (standalone) return [running.execPath, ...running.argv.slice(2)];
  return [running.execPath, ...running.execArgv, ...running.argv.slice(1)];
}

export function ensureRuntimeEnvironment(): void {
  const missing = Object.entries(wanted).filter(([name]) => !process.env[name]);
  if (missing.length === 0 || typeof process.execve !== "function") return;
  try {
    process.execve(process.execPath, commandLine(), { ...process.env, ...Object.fromEntries(missing) });
  } catch (error) {
    // Keep running with Bun's defaults rather than not at all.
    console.error(
      `switchyard: could not apply ${missing.map(([name]) => name).join(", ")}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
