// The embedded migration list is generated from drizzle/: it must match the files there, and
// both dialects must have the same migrations (one schema, two generated forms).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderMigrationList } from "../../src/build/list-migrations.ts";
import { pgMigrations, sqliteMigrations } from "../../src/store/migrations.generated.ts";

const root = join(import.meta.dir, "..", "..");

describe("embedded migrations", () => {
  test("src/store/migrations.generated.ts is up to date (run npm run db:generate)", () => {
    expect(readFileSync(join(root, "src", "store", "migrations.generated.ts"), "utf8")).toBe(renderMigrationList(root));
  });

  test("both dialects have migrations for the same tables", () => {
    expect(sqliteMigrations.length).toBe(pgMigrations.length);
    const tablesOf = (sql: string) => [...sql.matchAll(/CREATE TABLE [`"](\w+)[`"]/g)].map((m) => m[1]).sort();
    expect(tablesOf(sqliteMigrations.map((m) => m.sql).join("\n"))).toEqual(tablesOf(pgMigrations.map((m) => m.sql).join("\n")));
  });
});
