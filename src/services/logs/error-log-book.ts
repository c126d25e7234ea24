// Error log entries (type 5, new-api's newer error type): refused and failed relay calls, so a
// user and the operator can see what a client was told. They cost nothing (quota 0) and are
// written off the request's path: entries wait in memory and go to the store in batches, one
// multi-row insert a second at most.
//
// A failing call must not become a write a flood can multiply, so each subject has a budget per
// minute. A user (a valid token, or the playground's session) gets its first 60 failures of the
// minute one entry each; the rest are folded into one entry per kind of failure (status, message
// and model) with the number of calls it stands for, written when the minute ends. A call that
// names no user (a missing or unknown token) is known only by its address: the first of each
// address and reason is written at once, the rest folded the same way. Those entries have no
// user (user 0), so only admins see them. At most 500 folded entries (50 for addresses) are kept
// per minute; beyond them only a count survives, written as one entry. What waits for the store
// is bounded too: a store that cannot keep up loses entries, never memory.
import { nowSeconds } from "../../clock.ts";
import { logger } from "../../logger.ts";
import { db, t } from "../../store/client.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { optionBool } from "../options/options.ts";
import { LogType } from "./log-types.ts";
import { type CaptureParts, saveCaptureOf } from "../captures/capture-store.ts";
import { captureSwitchOn } from "../captures/capture-window.ts";

type LogInsert = Tables["logs"]["$inferInsert"];

export type ErrorLogEntry = {
  /** 0 when the call named no user (missing or unknown token). */
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  group: string;
  model: string;
  /** The last channel tried, 0 when none was. */
  channelId: number;
  channelName: string;
  /** The status and error object as the client received them. */
  status: number;
  message: string;
  errorType: string;
  errorCode: string | number | null;
  path: string;
  requestId: string;
  /** The client's address. */
  ip: string;
  useTimeSeconds: number;
  isStream: boolean;
  /** Channels tried, in order. */
  channelChain: number[];
  /** What decides the fold when the budget is spent: the message without its request id. */
  reason: string;
  /** What the request inspector keeps beside the entry (an entry of its own only: folded ones keep none). */
  capture?: CaptureParts;
};

const flushEveryMs = 1000;
const windowSeconds = 60;
const individualPerUser = 60;
const individualPerAddressReason = 1;
const foldedLimit = 500;
const anonymousFoldedLimit = 50;
const pendingLimit = 5000;
const insertChunk = 100;

type Folded = { entry: ErrorLogEntry; count: number; lastRequestId: string };

const pending: LogInsert[] = [];
/** Entries written with a capture beside them (each inserted alone, to learn its id). */
const captured = new WeakMap<LogInsert, CaptureParts>();
let windowStart = nowSeconds();
/** Entries written one by one this window, per subject. */
const written = new Map<string, number>();
const folded = new Map<string, Folded>();
let anonymousFolded = 0;
/** Failures this window that neither an entry nor a fold could take. */
let dropped = 0;
let timer: Timer | undefined;
let flushing: Promise<void> | undefined;

function rowOf(entry: ErrorLogEntry, repeat?: { count: number; lastRequestId: string }): LogInsert {
  const other: Record<string, unknown> = {
    status_code: entry.status,
    error_type: entry.errorType,
    error_code: entry.errorCode,
    request_path: entry.path,
    request_id: entry.requestId,
    admin_info: { use_channel: entry.channelChain.map(String) },
  };
  if (repeat) {
    other.repeat = repeat.count;
    other.last_request_id = repeat.lastRequestId;
  } else if (entry.capture) other.captured = true;
  return {
    user_id: entry.userId,
    username: entry.username,
    created_at: nowSeconds(),
    type: LogType.error,
    content: entry.message,
    token_id: entry.tokenId,
    token_name: entry.tokenName,
    model_name: entry.model,
    quota: 0,
    use_time: entry.useTimeSeconds,
    is_stream: entry.isStream,
    channel_id: entry.channelId,
    channel_name: entry.channelName,
    group: entry.group,
    other: JSON.stringify(other),
    ip: entry.ip,
  };
}

/** The stored text of the count of failures the limits left out (i18n-exempt: stored log text). */
const droppedText = (count: number) => `${count} 次失败的调用未逐条记录（错误日志已达本分钟上限）`; // i18n-exempt: stored log text

function closeWindow(): void {
  for (const fold of folded.values()) {
    if (pending.length < pendingLimit) pending.push(rowOf(fold.entry, { count: fold.count, lastRequestId: fold.lastRequestId }));
    else dropped += fold.count;
  }
  if (dropped > 0) {
    pending.push({
      user_id: 0,
      created_at: nowSeconds(),
      type: LogType.error,
      content: droppedText(dropped),
      quota: 0,
      other: JSON.stringify({ dropped }),
    });
  }
  folded.clear();
  written.clear();
  anonymousFolded = 0;
  dropped = 0;
  windowStart = nowSeconds();
}

function fold(subject: string, entry: ErrorLogEntry): void {
  const key = `${subject}\n${entry.status}\n${entry.model}\n${entry.reason}`;
  const existing = folded.get(key);
  if (existing) {
    existing.count++;
    existing.lastRequestId = entry.requestId;
    return;
  }
  const anonymous = entry.userId === 0;
  if (folded.size >= foldedLimit || (anonymous && anonymousFolded >= anonymousFoldedLimit)) {
    dropped++;
    return;
  }
  if (anonymous) anonymousFolded++;
  folded.set(key, { entry, count: 1, lastRequestId: entry.requestId });
}

/** Notes a refused or failed relay call; returns at once (the store is written later, in a batch). */
export function recordErrorLog(entry: ErrorLogEntry): void {
  if (!optionBool("ErrorLogEnabled")) return;
  if (nowSeconds() - windowStart >= windowSeconds) closeWindow();
  const subject = entry.userId ? `u${entry.userId}` : `a${entry.ip}\n${entry.reason}`;
  const budget = entry.userId ? individualPerUser : individualPerAddressReason;
  const used = written.get(subject) ?? 0;
  if (used < budget && pending.length < pendingLimit) {
    written.set(subject, used + 1);
    const row = rowOf(entry);
    if (entry.capture) captured.set(row, entry.capture);
    pending.push(row);
  } else fold(subject, entry);
  timer ??= setInterval(() => void flushErrorLogs().catch(() => undefined), flushEveryMs);
  timer.unref?.();
}

async function writePending(): Promise<void> {
  if (nowSeconds() - windowStart >= windowSeconds && (folded.size > 0 || dropped > 0)) closeWindow();
  while (pending.length > 0) {
    const chunk = pending.splice(0, insertChunk);
    const rows = chunk.filter((row) => !captured.has(row));
    for (const row of chunk) if (captured.has(row)) await writeCaptured(row, captured.get(row)!);
    if (rows.length === 0) continue;
    try {
      await db.insert(t.logs).values(rows);
    } catch (error) {
      // Error entries are a record, not money: a store that refuses them loses them, once.
      logger.warn("error log entries not written", { entries: rows.length, error: error instanceof Error ? error.message : String(error) });
    }
  }
}

/** An entry with its capture: the entry first, for its id, then the capture keyed by it. */
async function writeCaptured(row: LogInsert, capture: CaptureParts): Promise<void> {
  try {
    const [written] = await db.insert(t.logs).values(row).returning({ id: t.logs.id });
    if (written && captureSwitchOn()) await saveCaptureOf(written.id, capture);
  } catch (error) {
    logger.warn("error log entry not written", { error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * Writes what waits (one flush at a time). `everything` also closes the current minute, folded
 * entries included: the server is stopping.
 */
export function flushErrorLogs(options: { everything?: boolean } = {}): Promise<void> {
  if (options.everything && (folded.size > 0 || dropped > 0)) closeWindow();
  if (flushing) return flushing.then(() => (pending.length ? flushErrorLogs(options) : undefined));
  if (pending.length === 0 && folded.size === 0 && dropped === 0) return Promise.resolve();
  flushing = writePending().finally(() => {
    flushing = undefined;
  });
  return flushing;
}
