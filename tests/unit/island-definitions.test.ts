// Each island is declared once (islands/island-definition.ts): islands/<name>/<name>.ts(x) exports
// the one definition, named like its folder (the name the build gives its bundle), and a React
// island's browser entry mounts that same definition rather than a name of its own.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const islandsRoot = join(import.meta.dir, "..", "..", "islands");
const folders = readdirSync(islandsRoot).filter((name) => existsSync(join(islandsRoot, name, `${name}.island.tsx`)));

type Definition = { kind: "react" | "script"; name: string };
const isDefinition = (value: unknown): value is Definition =>
  typeof value === "object" && value !== null && ["react", "script"].includes((value as Definition).kind);

describe("island definitions", () => {
  test("the build finds the islands", () => {
    expect(folders).toContain("playground");
    expect(folders).toContain("log-export");
  });

  test.each(folders)("%s: one definition, named like its folder, mounted by its entry", async (folder) => {
    const module = [`${folder}.tsx`, `${folder}.ts`].map((file) => join(islandsRoot, folder, file)).find((path) => existsSync(path));
    expect(module).toBeDefined();
    const definitions = Object.entries(await import(module!)).filter((entry): entry is [string, Definition] => isDefinition(entry[1]));
    expect(definitions.map(([, definition]) => definition.name)).toEqual([folder]);
    const [exportName, definition] = definitions[0]!;
    const entry = readFileSync(join(islandsRoot, folder, `${folder}.island.tsx`), "utf8");
    const mounts = [...entry.matchAll(/mountIsland\(([^)]*)\)/g)].map((match) => match[1]);
    expect(mounts).toEqual(definition.kind === "react" ? [exportName] : []);
  });
});
