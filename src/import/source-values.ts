// Reading one column value the same way whichever driver returned it: MySQL gives BIGINT as a
// string, SQLite keeps GORM's booleans as 0/1 and its soft-delete times as text, PostgreSQL and
// MySQL give times as Date and JSON columns as objects. A value that cannot mean what the column
// says stops the import with the row named: nothing is guessed and nothing is written.
import type { SourceRow } from "./source-database.ts";

export class BadSourceValue extends Error {}

function fail(table: string, row: SourceRow, column: string, what: string): never {
  const id = row.id ?? row.key ?? "?";
  throw new BadSourceValue(`${table} row ${String(id)}: ${column} ${what} (${JSON.stringify(String(row[column]))})`);
}

/** An integer column; null and missing read as `fallback`. */
export function intOf(table: string, row: SourceRow, column: string, fallback = 0): number {
  const value = row[column];
  if (value === null || value === undefined || value === "") return fallback;
  const number = typeof value === "bigint" ? Number(value) : typeof value === "boolean" ? Number(value) : Number(value);
  if (!Number.isFinite(number) || !Number.isSafeInteger(Math.trunc(number))) fail(table, row, column, "is not an integer");
  return Math.trunc(number);
}

export function floatOf(table: string, row: SourceRow, column: string): number {
  const value = row[column];
  if (value === null || value === undefined || value === "") return 0;
  const number = Number(value);
  if (!Number.isFinite(number)) fail(table, row, column, "is not a number");
  return number;
}

export function boolOf(row: SourceRow, column: string): boolean {
  const value = row[column];
  if (typeof value === "string") return value === "1" || value.toLowerCase() === "true" || value === "t";
  return Boolean(value);
}

/** A text column (JSON columns come back as text too); null and missing read as "". */
export function textOf(row: SourceRow, column: string): string {
  const value = row[column];
  if (value === null || value === undefined) return "";
  if (value instanceof Uint8Array) return new TextDecoder().decode(value);
  if (typeof value === "object" && !(value instanceof Date)) return JSON.stringify(value);
  return String(value);
}

/** A nullable text column, kept null when the source has none. */
export function optionalTextOf(row: SourceRow, column: string): string | null {
  const value = row[column];
  return value === null || value === undefined ? null : textOf(row, column);
}

/** GORM's soft delete (a DATETIME, or text on SQLite) as unix seconds; null when not deleted. */
export function deletedAtOf(table: string, row: SourceRow, column = "deleted_at"): number | null {
  const value = row[column];
  if (value === null || value === undefined || value === "") return null;
  const date = value instanceof Date ? value : new Date(normaliseSqliteTime(String(value)));
  if (Number.isNaN(date.getTime())) fail(table, row, column, "is not a time");
  return Math.floor(date.getTime() / 1000);
}

/** "2024-05-01 10:20:30.123+08:00" (GORM on SQLite) -> a form Date parses everywhere. */
function normaliseSqliteTime(text: string): string {
  return text
    .trim()
    .replace(" ", "T")
    .replace(/([+-]\d\d)(\d\d)$/, "$1:$2");
}

/** Text for a bounded column: cut at `max` characters (names in logs and the like). */
export function clip(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}
