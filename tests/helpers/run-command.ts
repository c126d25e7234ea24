// Runs the gateway's command line (`bun src/main.ts <arguments>`) as a child process, the way an
// operator runs `switchyard import ...` or `switchyard backup`, and collects what it printed.
import { join } from "node:path";

export type CommandResult = { exitCode: number; stdout: string; stderr: string };

const main = join(import.meta.dir, "..", "..", "src", "main.ts");

export async function runSwitchyard(argv: string[], env: Record<string, string>): Promise<CommandResult> {
  const child = Bun.spawn({
    cmd: [process.execPath, main, ...argv],
    cwd: join(import.meta.dir, "..", ".."),
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { exitCode, stdout, stderr };
}
