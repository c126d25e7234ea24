// The command line entry: reads the arguments first (so --version and --help answer at once), makes
// sure the runtime has its settings (runtime-environment.ts: may replace the process, so it comes
// before anything costly is evaluated), then reads the configuration (bad configuration: exit
// code 2) and loads and starts the server.
import { helpText, readCommandLine, type CommandLine } from "./command-line.ts";
import { ConfigError } from "./config-error.ts";
import type { Config } from "./config.ts";
import { ensureRuntimeEnvironment } from "./runtime-environment.ts";
import { versionLine } from "./version.ts";

function exitOnConfigError(error: unknown): never {
  if (error instanceof ConfigError) {
    console.error(`switchyard: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

export async function main(): Promise<void> {
  let config: Config;
  let commandLine: CommandLine;
  try {
    commandLine = readCommandLine(process.argv.slice(2));
  } catch (error) {
    exitOnConfigError(error);
  }
  if (commandLine.action === "version") return void console.log(versionLine());
  if (commandLine.action === "help") return void console.log(helpText);
  // May replace the process (execve); config.ts (zod and the schema, about 5 ms) is loaded after
  // it, so only the process that serves evaluates it.
  if (commandLine.action === "serve") ensureRuntimeEnvironment();
  const { readConfig } = await import("./config.ts");
  try {
    config = readConfig(process.env, commandLine.action === "serve" ? commandLine.port : undefined);
  } catch (error) {
    exitOnConfigError(error);
  }
  // The executable starts with the JIT held back for the run-once start-up code
  // (build-executable.ts); the tools and the listening server run with the normal policy.
  if (commandLine.action !== "serve") Bun.unsafe.setJITPolicy(1);
  if (commandLine.action === "import") {
    const { importCommand } = await import("./import/import-command.ts");
    process.exit(await importCommand(config, commandLine.request));
  }
  if (commandLine.action === "prices") {
    const { pricesCommand } = await import("./prices/prices-command.ts");
    process.exit(await pricesCommand(config, commandLine.request));
  }
  if (commandLine.action === "backup") {
    const { backupCommand } = await import("./backup/backup-command.ts");
    process.exit(await backupCommand(config, commandLine.file));
  }
  const { startServer, StartRefused } = await import("./server.ts");
  const server = await startServer(config).catch((error: unknown) => {
    if (!(error instanceof StartRefused)) throw error;
    console.error(`switchyard: ${error.message}`);
    process.exit(1);
  });
  Bun.unsafe.setJITPolicy(1);
  // One stop, whatever arrives after it (systemd's SIGTERM, then an impatient Ctrl-C): the
  // process exits 0 only once every request is settled or released (shutdown.ts).
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.stop(signal).then(
      (clean) => process.exit(clean ? 0 : 1),
      (error: unknown) => {
        console.error(`switchyard: stopping failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

// Not awaited at the top level: the executable is CommonJS (src/build/build-executable.ts).
if (import.meta.main) void main();
