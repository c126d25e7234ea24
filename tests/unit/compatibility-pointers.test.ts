// Comments point only at documents the repository has. The compatibility rules code guards live
// in docs/COMPATIBILITY.md and are cited as "docs/COMPATIBILITY.md, <section>"; how the code is
// built is cited as "docs/ARCHITECTURE.md, <section>", and the section must be there; the product
// specification they were first read from is not in the repository, so a "spec §N" citation
// would send the reader nowhere.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..", "..");
const folders = ["src", "console-runtime", "islands", "tests", "bench", "docs"];
const thisFile = relative(root, import.meta.path);

function files(): { path: string; text: string }[] {
  const glob = new Bun.Glob("**/*.{ts,tsx,md}");
  const found = [
    ...folders.flatMap((folder) => [...glob.scanSync({ cwd: join(root, folder) })].map((path) => join(folder, path))),
    "README.md",
  ];
  return found
    .filter((path) => path !== thisFile && !path.includes("node_modules") && !path.startsWith("tests/fixtures/"))
    .map((path) => ({ path, text: readFileSync(join(root, path), "utf8") }));
}

describe("citations in code and docs", () => {
  const all = files();

  test("no comment cites the product specification's sections", () => {
    // "issue 15 §6" and "reliability plan §4.4" name documents we keep; a bare "§9" meant the spec.
    const citing = all.filter(({ text }) => /\bspec(ification)?('s)? §|(?<!\d |plan |, )§\d/i.test(text));
    expect(citing.map(({ path }) => path)).toEqual([]);
  });

  test('every "docs/COMPATIBILITY.md, <section>" names a section of that file', () => {
    const sections = new Set(
      readFileSync(join(root, "docs", "COMPATIBILITY.md"), "utf8")
        .split("\n")
        .filter((line) => line.startsWith("## "))
        .map((line) => line.slice(3).trim()),
    );
    const unknown: string[] = [];
    for (const { path, text } of all) {
      for (const match of text.matchAll(/COMPATIBILITY\.md, ([^);:`\n]*)/g)) {
        for (const name of match[1]!.split(", ")) if (!sections.has(name.trim())) unknown.push(`${path}: ${name}`);
      }
    }
    expect(sections.size).toBeGreaterThan(10);
    expect(unknown).toEqual([]);
  });

  test('every "docs/ARCHITECTURE.md, <section>" names a heading or a paragraph\'s lead there', () => {
    // A heading ("## Start-up (src/main.ts)" is cited as "Start-up") or a paragraph's bold or
    // italic lead ("**Providers.**", "**Redis outages** (issue 18)", "*No overdraft: ...*").
    const sections = new Set(
      readFileSync(join(root, "docs", "ARCHITECTURE.md"), "utf8")
        .split("\n")
        .flatMap((line) => {
          const heading = /^#{2,4} (.+?)(?: \(.*\))?$/.exec(line);
          if (heading) return [heading[1]!];
          const lead = /^(\*\*?)([^*]+?)\.?\1/.exec(line);
          return lead ? [lead[2]!] : [];
        }),
    );
    const item = String.raw`"[^"\n]+"|\*\*[^*\n]+\*\*`;
    const citation = new RegExp(String.raw`ARCHITECTURE\.md(?:, | )((?:${item})(?:, (?:${item}))*|[A-Z][\w -]*(?=[)."]))`, "g");
    const cited: string[] = [];
    const unknown: string[] = [];
    for (const { path, text } of all) {
      for (const match of text.matchAll(citation)) {
        for (const name of match[1]!.match(new RegExp(`${item}|[^,]+`, "g"))!) {
          const section = name.trim().replace(/^("|\*\*)|("|\*\*)$/g, "");
          cited.push(section);
          if (!sections.has(section)) unknown.push(`${path}: ${section}`);
        }
      }
    }
    expect(cited).toContain("Providers");
    expect(unknown).toEqual([]);
  });
});
