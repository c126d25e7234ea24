// The `import` command's face: runs the import, prints the summary on standard output, and
// turns a refusal or a failure into one line on standard error and exit code 1. A failure
// leaves the target exactly as it was (the import is one transaction).
import type { Config } from "../config.ts";
import type { ImportArguments } from "../tool-arguments.ts";
import { ImportRefused, runImport } from "./run-import.ts";
import { SourceError } from "./source-database.ts";
import { BadSourceValue } from "./source-values.ts";

export async function importCommand(config: Config, request: ImportArguments): Promise<number> {
  try {
    console.log(await runImport(config, request));
    return 0;
  } catch (error) {
    const known = error instanceof ImportRefused || error instanceof SourceError || error instanceof BadSourceValue;
    const message = error instanceof Error ? (known ? error.message : (error.stack ?? error.message)) : String(error);
    console.error(`switchyard import: ${message}`);
    if (!known || error instanceof BadSourceValue) console.error("switchyard import: nothing was written");
    return 1;
  }
}
