// Reading usage logs for the log page and /api/log. Admins see every
// entry with its channel, retry chain and client address; a user sees only their own entries,
// without the channel, the admin_info of `other`, the address, or the real row id (new-api shows
// id % 1024).
import { and, desc, eq, gte, like, lte, sql, type SQL } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { countRows, sumInteger } from "../../store/dialect.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { LogType } from "./log-types.ts";

export type LogRow = Tables["logs"]["$inferSelect"];

export type LogFilter = {
  type?: number;
  startTimestamp?: number;
  endTimestamp?: number;
  username?: string;
  tokenName?: string;
  modelName?: string;
  channel?: number;
  group?: string;
  /** The client's address (admins). */
  ip?: string;
  /** Set for the self views: only this user's entries. */
  userId?: number;
};

export type LogView = {
  id: number;
  user_id: number;
  created_at: number;
  type: number;
  content: string;
  username: string;
  token_name: string;
  token_id: number;
  model_name: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
  use_time: number;
  is_stream: boolean;
  channel: number;
  channel_name: string;
  group: string;
  other: string;
  /** The client's address; empty in a user's own view. */
  ip: string;
};

/** new-api treats a model filter as a LIKE pattern only when it contains %. */
function modelCondition(model: string): SQL {
  return model.includes("%") ? like(t.logs.model_name, model) : eq(t.logs.model_name, model);
}

function conditions(filter: LogFilter, includeTime = true): (SQL | undefined)[] {
  return [
    filter.userId !== undefined ? eq(t.logs.user_id, filter.userId) : undefined,
    filter.type ? eq(t.logs.type, filter.type) : undefined,
    includeTime && filter.startTimestamp ? gte(t.logs.created_at, filter.startTimestamp) : undefined,
    includeTime && filter.endTimestamp ? lte(t.logs.created_at, filter.endTimestamp) : undefined,
    filter.username ? eq(t.logs.username, filter.username) : undefined,
    filter.tokenName ? eq(t.logs.token_name, filter.tokenName) : undefined,
    filter.modelName ? modelCondition(filter.modelName) : undefined,
    filter.channel ? eq(t.logs.channel_id, filter.channel) : undefined,
    filter.group ? eq(t.logs.group, filter.group) : undefined,
    filter.ip ? eq(t.logs.ip, filter.ip) : undefined,
  ];
}

function adminView(row: LogRow): LogView {
  const { channel_id, request_id: _requestId, ...rest } = row;
  return { ...rest, channel: channel_id };
}

function withoutAdminInfo(other: string): string {
  if (!other.includes("admin_info")) return other;
  try {
    const parsed = JSON.parse(other) as Record<string, unknown>;
    delete parsed.admin_info;
    return JSON.stringify(parsed);
  } catch {
    return "";
  }
}

function userView(row: LogRow): LogView {
  return { ...adminView(row), id: row.id % 1024, channel: 0, channel_name: "", other: withoutAdminInfo(row.other), ip: "" };
}

export function toLogView(row: LogRow, admin: boolean): LogView {
  return admin ? adminView(row) : userView(row);
}

/** One page of entries, newest first (the time-ordered indexes serve every filter). */
export function queryLogPage(filter: LogFilter, paging: { page: number; pageSize: number }): Promise<LogRow[]> {
  return db
    .select()
    .from(t.logs)
    .where(and(...conditions(filter)))
    .orderBy(desc(t.logs.created_at), desc(t.logs.id))
    .limit(paging.pageSize)
    .offset((paging.page - 1) * paging.pageSize);
}

/**
 * How many entries match. With one filter its index counts them; with two (a model and a token,
 * say) every entry of the narrower one is read for the other, tens of milliseconds at a million
 * entries, so the console asks for it after showing the page (log-table.tsx).
 */
export async function countLogs(filter: LogFilter): Promise<number> {
  const [counted] = await db
    .select({ count: countRows() })
    .from(t.logs)
    .where(and(...conditions(filter)));
  return counted?.count ?? 0;
}

/** A page with the total, as /api/log answers it. */
export async function queryLogs(
  filter: LogFilter,
  paging: { page: number; pageSize: number },
): Promise<{ items: LogRow[]; total: number }> {
  const items = await queryLogPage(filter, paging);
  return { items, total: knownTotal(items.length, paging) ?? (await countLogs(filter)) };
}

/** The total when a page shows it: a page that is not full is the last one. */
export function knownTotal(rows: number, paging: { page: number; pageSize: number }): number | undefined {
  return rows < paging.pageSize && (rows > 0 || paging.page === 1) ? (paging.page - 1) * paging.pageSize + rows : undefined;
}

export type LogStat = { quota: number; rpm: number; tpm: number };

/**
 * Quota of the consumption entries matching the filter, plus requests and tokens per minute:
 * the same filter over the last 60 seconds (new-api's /api/log/stat).
 */
export async function logStat(filter: LogFilter): Promise<LogStat> {
  const consume = eq(t.logs.type, LogType.consume);
  const others = conditions({ ...filter, type: undefined }, false);
  const [[sum], [recent]] = await Promise.all([
    db
      .select({ quota: sumInteger(t.logs.quota) })
      .from(t.logs)
      .where(and(consume, ...conditions({ ...filter, type: undefined }))),
    db
      .select({ rpm: countRows(), tpm: sumInteger(sql`${t.logs.prompt_tokens} + ${t.logs.completion_tokens}`) })
      .from(t.logs)
      .where(and(consume, gte(t.logs.created_at, nowSeconds() - 60), ...others)),
  ]);
  return { quota: sum?.quota ?? 0, rpm: recent?.rpm ?? 0, tpm: recent?.tpm ?? 0 };
}
