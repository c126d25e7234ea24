// The few places where SQL differs between SQLite and PostgreSQL. Services call these instead
// of branching on the dialect themselves.
import { sql, type AnyColumn, type SQL as Sql } from "drizzle-orm";
import { dialect } from "./client.ts";

/** Escapes LIKE wildcards in user input so "%%%%" searches for percent signs, not everything. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}

/** Case-insensitive "contains", safe against wildcard injection. */
export function containsText(column: AnyColumn, text: string): Sql {
  const pattern = `%${escapeLike(text)}%`;
  return dialect === "pg" ? sql`${column} ilike ${pattern} escape '\\'` : sql`${column} like ${pattern} escape '\\'`;
}

/** SUM of an integer column as a JS number (PostgreSQL returns numeric sums as strings). */
export function sumInteger(column: AnyColumn | Sql): Sql<number> {
  return sql<number>`coalesce(sum(${column}), 0)`.mapWith(Number);
}

/** COUNT(*) as a JS number. */
export function countRows(): Sql<number> {
  return sql<number>`count(*)`.mapWith(Number);
}

/** True when an insert or update broke a unique index (both dialects' error forms). */
export function isUniqueViolation(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const record = current as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown };
    if (record.code === "23505" || record.errno === "23505") return true;
    if (record.code === "SQLITE_CONSTRAINT_UNIQUE" || record.code === "SQLITE_CONSTRAINT_PRIMARYKEY") return true;
    if (typeof record.message === "string" && /UNIQUE constraint failed|duplicate key value/.test(record.message)) return true;
    current = record.cause;
  }
  return false;
}
