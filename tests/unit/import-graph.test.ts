// The modules of src/ form no circle of imports, and the lower layers do not import the ones built
// on them (docs/ARCHITECTURE.md, "Layers and imports"). Type-only imports count like the others:
// a circle of types is still two modules that cannot be read, moved or tested one without the
// other, and breaking it costs one file of shared types. Dynamic imports count too.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importCycles, importGraph } from "../helpers/import-graph.ts";

const root = join(import.meta.dir, "..", "..");

describe("the import graph of src/", () => {
  const edges = importGraph(root, "src");

  test("has no circle", () => {
    expect(edges.length).toBeGreaterThan(1000);
    const circles = importCycles(edges).map((circle) => circle.join(" -> "));
    expect(circles).toEqual([]);
  });

  test("the store, the shared state and the services import nothing built on them", () => {
    const layer = (path: string) => path.split("/")[1]!.replace(/\.tsx?$/, "");
    const lower = new Set(["store", "cache", "services"]);
    const above = new Set([
      "relay",
      "metrics",
      "api",
      "console",
      "jobs",
      "backup",
      "import",
      "openapi",
      "app",
      "server",
      "main",
      "shutdown",
    ]);
    const upward = edges
      .filter((edge) => lower.has(layer(edge.from)) && above.has(layer(edge.to)))
      .map((edge) => `${edge.from} -> ${edge.to} (${edge.kind})`);
    expect(upward).toEqual([]);
  });
});

describe("the check itself", () => {
  test("finds circles of values, of types only, and through dynamic imports, and names each once", () => {
    const folder = mkdtempSync(join(tmpdir(), "import-graph-"));
    try {
      const write = (path: string, text: string) => {
        mkdirSync(join(folder, "src", path, ".."), { recursive: true });
        writeFileSync(join(folder, "src", path), text);
      };
      write("a.ts", 'import { b } from "./b.ts";\nexport const a = b;\n');
      write("b.ts", 'import type { A } from "./types/c.ts";\nexport const b = 1 as A;\n');
      write("types/c.ts", 'import type { a } from "../a.ts";\nexport type A = typeof a;\n');
      write("lazy.ts", 'export const load = () => import("./late.ts");\n');
      write("late.ts", 'export { load } from "./lazy.ts";\n');
      write("leaf.ts", 'import { a } from "./a.ts";\nimport { readFileSync } from "node:fs";\nexport const leaf = [a, readFileSync];\n');
      write("skip.test.ts", 'import { leaf } from "./leaf.ts";\nimport "./skip.test.ts";\n');
      const edges = importGraph(folder, "src");
      expect(edges.find((edge) => edge.from === "src/b.ts")?.kind).toBe("type");
      expect(edges.find((edge) => edge.from === "src/lazy.ts")?.kind).toBe("dynamic");
      expect(edges.some((edge) => edge.from.endsWith(".test.ts"))).toBe(false);
      expect(importCycles(edges)).toEqual([
        ["src/a.ts", "src/b.ts", "src/types/c.ts", "src/a.ts"],
        ["src/late.ts", "src/lazy.ts", "src/late.ts"],
      ]);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
