// The arguments of the commands that are tools rather than the server: `import`, `backup` and `prices`.
// Mistakes throw ConfigError (exit code 2, like bad configuration) naming what was wrong.
import { ConfigError } from "./config-error.ts";

/** What an imported root account becomes when the store has its root already (--root-role). */
export const importedRootRoles = { common: 1, admin: 10 } as const;
export type ImportedRootRole = keyof typeof importedRootRoles;

export type ImportArguments = {
  source: string;
  dryRun: boolean;
  merge: boolean;
  withLogs: boolean;
  /** --merge-options: with --merge, the source's options replace the store's (after a preview). */
  mergeOptions: boolean;
  rootRole: ImportedRootRole;
};

export function readImportArguments(argv: string[]): ImportArguments {
  const flags = { dryRun: false, merge: false, withLogs: false, mergeOptions: false };
  let rootRole: ImportedRootRole = "common";
  const positional: string[] = [];
  for (const argument of argv) {
    if (argument === "--dry-run") flags.dryRun = true;
    else if (argument === "--merge") flags.merge = true;
    else if (argument === "--with-logs") flags.withLogs = true;
    else if (argument === "--merge-options") flags.mergeOptions = true;
    else if (argument.startsWith("--root-role=")) {
      const role = argument.slice("--root-role=".length);
      if (!Object.hasOwn(importedRootRoles, role)) throw new ConfigError(`invalid --root-role: ${role} (common or admin)`);
      rootRole = role as ImportedRootRole;
    } else if (argument.startsWith("-")) throw new ConfigError(`unknown import option ${argument} (see --help)`);
    else positional.push(argument);
  }
  if (positional.length !== 1) {
    throw new ConfigError("import needs exactly one source: a SQLite file, a postgres:// URL or a mysql:// URL (see --help)");
  }
  if (flags.mergeOptions && !flags.merge) throw new ConfigError("--merge-options goes with --merge (see --help)");
  return { source: positional[0]!, ...flags, rootRole };
}

export function readBackupArguments(argv: string[]): { file?: string } {
  const options = argv.filter((argument) => argument.startsWith("-"));
  if (options.length > 0) throw new ConfigError(`unknown backup option ${options[0]} (see --help)`);
  if (argv.length > 1) throw new ConfigError("backup takes at most one file name (see --help)");
  return { file: argv[0] };
}

export type PricesArguments = { url: string; apply: boolean };

export function readPricesArguments(argv: string[]): PricesArguments {
  if (argv[0] !== "sync") throw new ConfigError("prices needs a subcommand: prices sync <url> [--apply] (see --help)");
  let apply = false;
  const positional: string[] = [];
  for (const argument of argv.slice(1)) {
    if (argument === "--apply") apply = true;
    else if (argument.startsWith("-")) throw new ConfigError(`unknown prices option ${argument} (see --help)`);
    else positional.push(argument);
  }
  if (positional.length !== 1) throw new ConfigError("prices sync needs exactly one URL (see --help)");
  return { url: positional[0]!, apply };
}
