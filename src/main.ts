// The command line entry: reads arguments and configuration first (so --version, --help and bad
// configuration answer at once, exit code 2 for the latter), then loads and starts the server.
import { ConfigError, helpText, readCommandLine, readConfig, type CommandLine, type Config } from "./config.ts";
import { ensureRuntimeEnvironment } from "./runtime-environment.ts";
import { productVersion } from "./version.ts";

export async function main(): Promise<void> {
  let config: Config;
  let commandLine: CommandLine;
  try {
    commandLine = readCommandLine(process.argv.slice(2));
    if (commandLine.action === "version") return void console.log(productVersion);
    if (commandLine.action === "help") return void console.log(helpText);
    config = readConfig(process.env, commandLine.action === "serve" ? commandLine.port : undefined);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`switchyard: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  if (commandLine.action === "import") {
    const { importCommand } = await import("./import/import-command.ts");
    process.exit(await importCommand(config, commandLine.request));
  }
  if (commandLine.action === "backup") {
    const { backupCommand } = await import("./backup/backup-command.ts");
    process.exit(await backupCommand(config, commandLine.file));
  }
  ensureRuntimeEnvironment();
  const { startServer } = await import("./server.ts");
  const server = await startServer(config);
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
