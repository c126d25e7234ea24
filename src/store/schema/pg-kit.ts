// The PostgreSQL dialect kit (see kit.ts): the same vocabulary built from drizzle's pg-core.
import {
  bigint as pgBigint,
  boolean as pgBoolean,
  doublePrecision as pgDouble,
  index as pgIndex,
  integer as pgInteger,
  pgTable,
  primaryKey as pgPrimaryKey,
  serial as pgSerial,
  text as pgText,
  uniqueIndex as pgUniqueIndex,
  varchar as pgVarchar,
} from "drizzle-orm/pg-core";
import type { Kit } from "./kit.ts";

const pgKitBuilders = {
  table: pgTable,
  id: (name = "id") => pgSerial(name).primaryKey(),
  int: (name: string) => pgInteger(name),
  bigint: (name: string) => pgBigint(name, { mode: "number" }),
  float: (name: string) => pgDouble(name),
  bool: (name: string) => pgBoolean(name),
  text: (name: string) => pgText(name),
  varchar: (name: string, length: number) => pgVarchar(name, { length }),
  index: pgIndex,
  uniqueIndex: pgUniqueIndex,
  primaryKey: pgPrimaryKey,
};

// The cast is the single place where the two dialects meet; see kit.ts's header comment.
export const pgKit = pgKitBuilders as unknown as Kit;
