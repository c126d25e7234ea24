// A dialect kit: the column and index vocabulary a table definition is written in. Each table is
// defined once, as a function of a kit (tables/*.ts); schema/sqlite.ts and schema/pg.ts apply the
// two kits (this file's and pg-kit.ts) to get the drizzle tables of each dialect. Nobody keeps
// two schemas by hand. The PostgreSQL kit lives in its own file so a SQLite start never loads
// drizzle's PostgreSQL builders (client.ts imports the PostgreSQL side only when it is used).
//
// Types: the kit is typed with the SQLite builders, so every table has one TypeScript shape
// (the SQLite one) whichever dialect runs. The PostgreSQL kit returns equivalent pg builders at
// run time; the columns are chosen so both dialects read back the same JavaScript values
// (integers as number, booleans as boolean, text as string).
import {
  index as sqliteIndex,
  integer as sqliteInteger,
  primaryKey as sqlitePrimaryKey,
  real as sqliteReal,
  sqliteTable,
  text as sqliteText,
  uniqueIndex as sqliteUniqueIndex,
} from "drizzle-orm/sqlite-core";

export const sqliteKit = {
  table: sqliteTable,
  /** Auto-increment integer primary key. */
  id: (name = "id") => sqliteInteger(name).primaryKey({ autoIncrement: true }),
  /** 32-bit integer: statuses, roles, counts that stay small. */
  int: (name: string) => sqliteInteger(name),
  /** 64-bit integer read as a JS number: quota, unix times, token counts. */
  bigint: (name: string) => sqliteInteger(name),
  float: (name: string) => sqliteReal(name),
  bool: (name: string) => sqliteInteger(name, { mode: "boolean" }),
  text: (name: string) => sqliteText(name),
  /** Bounded text; PostgreSQL enforces the length, SQLite does not (services validate). */
  varchar: (name: string, length: number) => sqliteText(name, { length }),
  index: sqliteIndex,
  uniqueIndex: sqliteUniqueIndex,
  primaryKey: sqlitePrimaryKey,
};

export type Kit = typeof sqliteKit;
