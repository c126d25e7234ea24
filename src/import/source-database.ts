// The database an import reads from: a new-api or one-api store on SQLite (a file), PostgreSQL
// (postgres://) or MySQL/MariaDB (mysql://). One small read-only interface over the three, so the
// mapping code never asks which it reads: what tables and columns exist, how many rows a table
// has, and its rows page by page in primary-key order (keyset paging: constant cost per page
// however far into a large log table the import is).
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { existsSync } from "node:fs";

export type SourceDialect = "sqlite" | "postgres" | "mysql";
export type SourceRow = Record<string, unknown>;

export type SourceDatabase = {
  dialect: SourceDialect;
  /** Where it is, with any password removed (for messages). */
  label: string;
  /** Table name -> its column names, lower case. */
  describe(): Promise<Map<string, Set<string>>>;
  count(table: string): Promise<number>;
  /** Rows of a table in `key` order, `size` at a time. */
  pages(table: string, key: string, size: number): AsyncGenerator<SourceRow[]>;
  close(): Promise<void>;
};

export class SourceError extends Error {}

export async function openSource(source: string): Promise<SourceDatabase> {
  if (/^postgres(ql)?:\/\//i.test(source)) return openServer(source, "postgres");
  if (/^mysql:\/\//i.test(source)) return openServer(source, "mysql");
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source)) {
    throw new SourceError(`unsupported source ${withoutPassword(source)}: give a SQLite file, a postgres:// URL or a mysql:// URL`);
  }
  if (!existsSync(source)) throw new SourceError(`no such SQLite file: ${source}`);
  return openSqlite(source);
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}

function openSqlite(path: string): SourceDatabase {
  let client: Database;
  try {
    client = new Database(path, { readonly: true });
    client.query("select count(*) from sqlite_master").get();
  } catch (error) {
    throw new SourceError(`${path} is not a readable SQLite database (${error instanceof Error ? error.message : String(error)})`);
  }
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return {
    dialect: "sqlite",
    label: path,
    async describe() {
      const tables = new Map<string, Set<string>>();
      const names = client.query("select name from sqlite_master where type = 'table'").all() as { name: string }[];
      for (const { name } of names) {
        const columns = client.query(`select name from pragma_table_info(?)`).all(name) as { name: string }[];
        tables.set(name.toLowerCase(), new Set(columns.map((column) => column.name.toLowerCase())));
      }
      return tables;
    },
    async count(table) {
      const row = client.query(`select count(*) as n from ${quote(table)}`).get() as { n: number };
      return Number(row.n);
    },
    async *pages(table, key, size) {
      const first = client.query(`select * from ${quote(table)} order by ${quote(key)} limit ?`);
      const after = client.query(`select * from ${quote(table)} where ${quote(key)} > ? order by ${quote(key)} limit ?`);
      let last: unknown;
      for (;;) {
        const rows = (last === undefined ? first.all(size) : after.all(last as never, size)) as SourceRow[];
        if (rows.length === 0) return;
        yield rows;
        if (rows.length < size) return;
        last = rows[rows.length - 1]![key];
      }
    },
    async close() {
      client.close();
    },
  };
}

async function openServer(url: string, dialect: "postgres" | "mysql"): Promise<SourceDatabase> {
  const client = new SQL(url, { max: 2 });
  const label = withoutPassword(url);
  try {
    await client.unsafe("select 1");
  } catch (error) {
    await client.close().catch(() => undefined);
    throw new SourceError(`cannot connect to ${label} (${error instanceof Error ? error.message : String(error)})`);
  }
  const quote =
    dialect === "mysql" ? (name: string) => `\`${name.replace(/`/g, "``")}\`` : (name: string) => `"${name.replace(/"/g, '""')}"`;
  const placeholder = dialect === "mysql" ? () => "?" : (index: number) => `$${index}`;
  const schemaFilter = dialect === "mysql" ? "table_schema = database()" : "table_schema = current_schema()";
  return {
    dialect,
    label,
    async describe() {
      const rows = (await client.unsafe(
        `select table_name as t, column_name as c from information_schema.columns where ${schemaFilter}`,
      )) as { t: string; c: string }[];
      const tables = new Map<string, Set<string>>();
      for (const row of rows) {
        const name = String(row.t).toLowerCase();
        if (!tables.has(name)) tables.set(name, new Set());
        tables.get(name)!.add(String(row.c).toLowerCase());
      }
      return tables;
    },
    async count(table) {
      const [row] = (await client.unsafe(`select count(*) as n from ${quote(table)}`)) as { n: unknown }[];
      return Number(row?.n ?? 0);
    },
    async *pages(table, key, size) {
      let last: unknown;
      for (;;) {
        const rows = (
          last === undefined
            ? await client.unsafe(`select * from ${quote(table)} order by ${quote(key)} limit ${placeholder(1)}`, [size])
            : await client.unsafe(
                `select * from ${quote(table)} where ${quote(key)} > ${placeholder(1)} order by ${quote(key)} limit ${placeholder(2)}`,
                [last, size],
              )
        ) as SourceRow[];
        if (rows.length === 0) return;
        yield [...rows];
        if (rows.length < size) return;
        last = rows[rows.length - 1]![key];
      }
    },
    close: () => client.close(),
  };
}
