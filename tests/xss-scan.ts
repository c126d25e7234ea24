// kitajs's XSS scan (@kitajs/ts-html-plugin) over the server's TSX, as its `xss-scan` command
// does, except for React islands: files that declare `@jsxImportSource react` are rendered by
// React, which escapes every text and attribute itself, and the scanner does not know React.
// Exit code 1 when a server TSX expression could carry unescaped HTML.
import ts from "typescript";
import { join } from "node:path";
import { recursiveDiagnoseJsxElements } from "@kitajs/ts-html-plugin/dist/util.js";

const root = join(import.meta.dir, "..");
const configPath = join(root, "tsconfig.json");
const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
const program = ts.createProgram(parsed.fileNames, parsed.options);
const checker = program.getTypeChecker();
const diagnostics: ts.Diagnostic[] = [];
let scanned = 0;
for (const source of program.getSourceFiles()) {
  if (!/\.(t|j)sx$/.test(source.fileName) || source.fileName.includes("/node_modules/")) continue;
  if (/@jsxImportSource\s+react\b/.test(source.text.slice(0, 500))) continue;
  scanned++;
  ts.forEachChild(source, (node) => recursiveDiagnoseJsxElements(ts, node, checker, diagnostics));
}
if (diagnostics.length > 0) {
  console.error(
    ts.formatDiagnostics(diagnostics, { getCurrentDirectory: () => root, getCanonicalFileName: (name) => name, getNewLine: () => "\n" }),
  );
  console.error(`${diagnostics.length} XSS-prone expressions found`);
  process.exit(1);
}
console.log(`No XSS vulnerabilities found in ${scanned} server TSX files`);
