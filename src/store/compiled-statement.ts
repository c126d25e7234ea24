// A drizzle query compiled once for bun:sqlite: the SQL and the parameter order come from drizzle
// (so the statement follows the schema); each call only reads the named values in order (through
// the column's encoder where drizzle has one, e.g. booleans), runs the statement and decodes the
// returned columns. Drizzle's prepared query does the same per call but first finds out again
// which parameters are placeholders and how rows map to fields, which costs more than SQLite's
// own work for these short statements.
import type { Statement } from "bun:sqlite";
import { is, Param, Placeholder, SQL } from "drizzle-orm";

export type Preparable<T> = { prepare(name?: string): { execute(values?: Record<string, unknown>): unknown } } & PromiseLike<T>;

export type CompiledStatement<T> = (values: Record<string, unknown>) => T;

type Encoder = { mapToDriverValue(value: unknown): unknown };
type Decoder = { mapFromDriverValue(value: unknown): unknown };

/** What drizzle's bun-sqlite prepared query keeps (its internal fields). */
type BunPreparedQuery = {
  stmt?: Statement;
  query?: { sql: string; params: unknown[] };
  fields?: { path: string[]; field: unknown }[];
  customResultMapper?: unknown;
};

type Reader = (values: Record<string, unknown>) => unknown;

function placeholderReader(name: string): Reader {
  return (values) => {
    const value = values[name];
    if (value === undefined && !(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
    return value;
  };
}

function parameterReader(param: unknown): Reader {
  if (is(param, Placeholder)) return placeholderReader(param.name);
  if (is(param, Param) && is(param.value, Placeholder)) {
    const read = placeholderReader(param.value.name);
    const encoder = param.encoder as Encoder | undefined;
    return encoder ? (values) => encoder.mapToDriverValue(read(values)) : read;
  }
  return () => param;
}

function decoderOf(field: unknown): Decoder {
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (typeof (field as Decoder).mapFromDriverValue === "function") return field as Decoder;
  return (field as { sql: { decoder: Decoder } }).sql.decoder;
}

export function compileSqliteStatement<T>(query: Preparable<T>): CompiledStatement<T> {
  const prepared = query.prepare() as unknown as BunPreparedQuery;
  const { stmt, fields } = prepared;
  if (!stmt || !prepared.query || prepared.customResultMapper || fields?.some((column) => column.path.length !== 1)) {
    throw new Error("compileSqliteStatement: only flat single-table statements can be compiled");
  }
  const readers = prepared.query.params.map(parameterReader);
  const bind = (values: Record<string, unknown>) => {
    const bound = new Array<unknown>(readers.length);
    for (let index = 0; index < readers.length; index++) bound[index] = readers[index]!(values);
    return bound as never[];
  };
  if (!fields) return ((values) => stmt.run(...bind(values))) as CompiledStatement<T>;
  const names = fields.map((column) => column.path[0]!);
  const decoders = fields.map((column) => decoderOf(column.field));
  return ((values) =>
    stmt.values(...bind(values)).map((row) => {
      const result: Record<string, unknown> = {};
      for (let index = 0; index < names.length; index++) {
        const raw = row[index];
        result[names[index]!] = raw === null ? null : decoders[index]!.mapFromDriverValue(raw);
      }
      return result;
    })) as CompiledStatement<T>;
}
