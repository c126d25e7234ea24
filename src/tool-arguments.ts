// The arguments of the commands that are tools rather than the server: `import` and `backup`.
// Mistakes throw ConfigError (exit code 2, like bad configuration) naming what was wrong.
import { ConfigError } from "./config-error.ts";

export type ImportArguments = { source: string; dryRun: boolean; merge: boolean; withLogs: boolean };

export function readImportArguments(argv: string[]): ImportArguments {
  const flags = { dryRun: false, merge: false, withLogs: false };
  const positional: string[] = [];
  for (const argument of argv) {
    if (argument === "--dry-run") flags.dryRun = true;
    else if (argument === "--merge") flags.merge = true;
    else if (argument === "--with-logs") flags.withLogs = true;
    else if (argument.startsWith("-")) throw new ConfigError(`unknown import option ${argument} (see --help)`);
    else positional.push(argument);
  }
  if (positional.length !== 1) {
    throw new ConfigError("import needs exactly one source: a SQLite file, a postgres:// URL or a mysql:// URL (see --help)");
  }
  return { source: positional[0]!, ...flags };
}

export function readBackupArguments(argv: string[]): { file?: string } {
  const options = argv.filter((argument) => argument.startsWith("-"));
  if (options.length > 0) throw new ConfigError(`unknown backup option ${options[0]} (see --help)`);
  if (argv.length > 1) throw new ConfigError("backup takes at most one file name (see --help)");
  return { file: argv[0] };
}
