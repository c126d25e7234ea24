// The store a test server runs on: a new SQLite file by default, or, when TEST_STORE=pg, a new
// PostgreSQL database created on the server at TEST_PG_URL (and dropped afterwards). In CI the
// variable is set, so a missing PostgreSQL fails the run instead of skipping it.
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type TestStore = {
  dialect: "sqlite" | "pg";
  /** Environment for the server process. */
  env: Record<string, string>;
  /** Runs a query directly against the store (assertions, or arranging a rare state). */
  query<T = Record<string, unknown>>(text: string, ...params: unknown[]): Promise<T[]>;
  dispose(): Promise<void>;
};

export const testDialect: "sqlite" | "pg" = process.env.TEST_STORE === "pg" ? "pg" : "sqlite";

function pgAdminUrl(): string {
  const url = process.env.TEST_PG_URL;
  if (!url) throw new Error("TEST_STORE=pg needs TEST_PG_URL (e.g. postgres://postgres@127.0.0.1:5432/test)");
  return url;
}

export async function createTestStore(): Promise<TestStore> {
  if (testDialect === "pg") {
    const adminUrl = pgAdminUrl();
    const name = `sy_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
    const admin = new SQL(adminUrl);
    await admin.unsafe(`create database ${name}`);
    await admin.close();
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const client = new SQL(url.toString());
    return {
      dialect: "pg",
      env: { SQL_DSN: url.toString() },
      query: (text, ...params) => client.unsafe(toPgPlaceholders(text), params as never[]) as never,
      async dispose() {
        await client.close();
        const cleanup = new SQL(adminUrl);
        await cleanup.unsafe(`drop database if exists ${name} with (force)`);
        await cleanup.close();
      },
    };
  }
  const folder = mkdtempSync(join(tmpdir(), "switchyard-test-"));
  const path = join(folder, "store.db");
  return {
    dialect: "sqlite",
    env: { SQLITE_PATH: path },
    // A connection per query, closed at once: one left open would count as a process using the
    // store, and `switchyard import` refuses to write into a store another process has open.
    async query(text, ...params) {
      const reader = new Database(path);
      try {
        reader.run("PRAGMA busy_timeout = 5000");
        return reader.query(text).all(...(params as never[])) as never;
      } finally {
        reader.close();
      }
    },
    async dispose() {
      rmSync(folder, { recursive: true, force: true });
    },
  };
}

/** Tests write "?" placeholders; PostgreSQL wants $1, $2... */
function toPgPlaceholders(text: string): string {
  let index = 0;
  return text.replace(/\?/g, () => `$${++index}`);
}
