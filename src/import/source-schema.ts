// Which system wrote the source, and which generation of it, told from its tables and columns
// alone (neither keeps a schema version). The facts used:
//   - new-api (v0.4 and later): users carry the invite counters (aff_count), channels carry
//     `tag` and `setting` (both arrived with v0.4), and the midjourneys, top_ups and tasks tables exist.
//   - one-api v0.6.x: no invite counters, and channels carry the `config` JSON that v0.6.0 added.
// Anything else is refused with what was missing, so nobody imports half a database by accident.
import type { SourceDatabase } from "./source-database.ts";
import { SourceError } from "./source-database.ts";

export type Product = "new-api" | "one-api";

export type SourceSchema = {
  product: Product;
  /** For people: "new-api v0.4 or later (with logs.group, tokens.cross_group_retry)". */
  label: string;
  tables: Map<string, Set<string>>;
  has(table: string, column?: string): boolean;
};

/** Columns the import cannot do without, per table, for both products. */
const required: Record<string, string[]> = {
  users: ["id", "username", "password", "role", "status", "quota", "used_quota", "group"],
  tokens: ["id", "user_id", "key", "status", "name", "remain_quota", "unlimited_quota", "used_quota", "expired_time"],
  channels: ["id", "type", "key", "status", "name", "models", "group", "priority", "weight"],
  options: ["key", "value"],
};

/** Later columns worth naming in the label: they say roughly how recent the source is. */
const landmarks: [string, string][] = [
  ["logs", "group"],
  ["users", "setting"],
  ["channels", "param_override"],
  ["channels", "channel_info"],
  ["tokens", "cross_group_retry"],
  ["users", "oidc_id"],
  ["users", "lark_id"],
  ["tokens", "models"],
  ["channels", "system_prompt"],
  ["logs", "request_id"],
];

export async function readSourceSchema(source: SourceDatabase): Promise<SourceSchema> {
  const tables = await source.describe();
  const has = (table: string, column?: string) => tables.has(table) && (column === undefined || tables.get(table)!.has(column));
  const missing = Object.entries(required).flatMap(([table, columns]) =>
    !has(table) ? [`table ${table}`] : columns.filter((column) => !has(table, column)).map((column) => `${table}.${column}`),
  );
  if (missing.length > 0) {
    throw new SourceError(
      `${source.label} is not a new-api or one-api database Switchyard knows: missing ${missing.slice(0, 6).join(", ")}${missing.length > 6 ? ", ..." : ""}`,
    );
  }
  const product = productOf(has, source.label);
  const seen = landmarks.filter(([table, column]) => has(table, column)).map(([table, column]) => `${table}.${column}`);
  const generation = product === "new-api" ? "new-api v0.4 or later" : "one-api v0.6";
  return { product, label: seen.length ? `${generation} (with ${seen.join(", ")})` : generation, tables, has };
}

function productOf(has: (table: string, column?: string) => boolean, label: string): Product {
  if (has("users", "aff_count")) {
    const lacking = [
      ...["tag", "setting"].filter((column) => !has("channels", column)).map((column) => `channels.${column}`),
      ...["midjourneys", "top_ups", "tasks"].filter((table) => !has(table)).map((table) => `table ${table}`),
    ];
    if (lacking.length > 0) {
      throw new SourceError(
        `${label} looks like new-api older than v0.4 (no ${lacking.join(", ")}): upgrade it to v0.4 or later, start it once so it migrates its database, then import`,
      );
    }
    return "new-api";
  }
  if (has("channels", "config")) return "one-api";
  throw new SourceError(
    `${label} looks like one-api older than v0.6 (channels has no config column) or another fork: upgrade it to v0.6 or later, start it once so it migrates its database, then import`,
  );
}
