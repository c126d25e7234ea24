// Finds the Chinese string literals of the source tree: every one must be a catalog key, so no
// visible text escapes translation. A line may opt out with an "i18n-exempt" comment (texts kept
// in the store as data, such as log entry contents).
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const cjk = /[\u3000-\u9fff\uff00-\uffef]/;
const literal = /"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|`((?:[^`\\]|\\.)*)`/g;

export type Literal = { file: string; line: number; text: string };

function walk(folder: string, files: string[] = []): string[] {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) walk(path, files);
    else if (/\.(ts|tsx)$/.test(entry) && !entry.endsWith(".test.ts") && !entry.endsWith(".generated.ts")) files.push(path);
  }
  return files;
}

export function cjkLiterals(root: string, folders: string[]): Literal[] {
  const found: Literal[] = [];
  for (const file of folders.flatMap((folder) => walk(join(root, folder)))) {
    const lines = readFileSync(file, "utf8").split("\n");
    lines.forEach((raw, index) => {
      if (raw.includes("i18n-exempt")) return;
      const code = raw.trimStart();
      if (code.startsWith("//") || code.startsWith("*") || code.startsWith("/*")) return;
      const withoutComment = raw.replace(/\s\/\/\s.*$/, "");
      for (const match of withoutComment.matchAll(literal)) {
        const text = match[1] ?? match[2] ?? match[3] ?? "";
        if (cjk.test(text)) found.push({ file: relative(root, file), line: index + 1, text: text.replace(/\\"/g, '"') });
      }
    });
  }
  return found;
}
