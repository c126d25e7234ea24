// The command line entry: reads arguments and configuration first (so --version, --help and bad
// configuration answer at once, exit code 2 for the latter), then loads and starts the server.
import { ConfigError, helpText, readCommandLine, readConfig, type Config } from "./config.ts";
import { productVersion } from "./version.ts";

export async function main(): Promise<void> {
  let config: Config;
  try {
    const commandLine = readCommandLine(process.argv.slice(2));
    if (commandLine.action === "version") return void console.log(productVersion);
    if (commandLine.action === "help") return void console.log(helpText);
    config = readConfig(process.env, commandLine.port);
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`switchyard: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  const { startServer } = await import("./server.ts");
  const server = await startServer(config);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(0);
  };
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
}

if (import.meta.main) await main();
