// Where /proc/self/cmdline is missing (macOS), the process re-executes itself with the command
// line Bun reports: for a compiled executable that must not include its virtual entry.
import { describe, expect, test } from "bun:test";
import { commandLineFromArgv } from "./runtime-environment.ts";

describe("commandLineFromArgv", () => {
  test("a compiled executable: its own path, then its arguments", () => {
    const running = { execPath: "/opt/switchyard", execArgv: [], argv: ["bun", "/$bunfs/root/executable-entry", "--port", "8080"] };
    expect(commandLineFromArgv(running, true)).toEqual(["/opt/switchyard", "--port", "8080"]);
  });

  test("bun running the sources: bun, its options, the script, then the arguments", () => {
    const running = { execPath: "/usr/bin/bun", execArgv: ["--smol"], argv: ["/usr/bin/bun", "/app/src/main.ts", "backup"] };
    expect(commandLineFromArgv(running, false)).toEqual(["/usr/bin/bun", "--smol", "/app/src/main.ts", "backup"]);
  });
});
