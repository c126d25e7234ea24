// The request inspector's rows (table log_captures, keyed by log id): written after the log entry
// they belong to is committed, read by the log's owner and the admins, removed after
// RequestCaptureRetentionDays, and all at once when the site's switch is turned off.
import { and, eq, gte, lt, ne } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { notFound } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import { optionNumber } from "../options/options.ts";
import { isAdmin } from "../users/roles.ts";
import { wasCut } from "./capture-text.ts";
import { captureMessages, captureSwitchOn } from "./capture-window.ts";

/** What is kept of one call (bodies already cut, headers already cleaned: capture-text.ts). */
export type CaptureParts = {
  userId: number;
  method: string;
  path: string;
  requestHeaders: Record<string, string>;
  requestBody: string;
  requestSize: number;
  responseStatus: number;
  responseBody: string;
  responseSize: number;
  isStream: boolean;
};

export type CaptureView = {
  log_id: number;
  user_id: number;
  created_at: number;
  expires_at: number;
  method: string;
  path: string;
  request_headers: Record<string, string>;
  request_body: string;
  request_size: number;
  request_truncated: boolean;
  response_status: number;
  response_body: string;
  response_size: number;
  response_truncated: boolean;
  is_stream: boolean;
};

const retentionSeconds = () => Math.max(1, optionNumber("RequestCaptureRetentionDays")) * 86_400;

function rowOf(logId: number, parts: CaptureParts) {
  return {
    log_id: logId,
    user_id: parts.userId,
    created_at: nowSeconds(),
    method: parts.method,
    path: parts.path,
    request_headers: JSON.stringify(parts.requestHeaders),
    request_body: parts.requestBody,
    request_size: parts.requestSize,
    response_status: parts.responseStatus,
    response_body: parts.responseBody,
    response_size: parts.responseSize,
    is_stream: parts.isStream,
  };
}

/** Keeps a capture beside the log entry with this id. */
export async function saveCaptureOf(logId: number, parts: CaptureParts): Promise<void> {
  await db.insert(t.log_captures).values(rowOf(logId, parts)).onConflictDoNothing();
}

/**
 * Keeps a capture beside the consumption log of a settled request (found by its unique request
 * id); nothing when no entry was written (consumption logs off, the settlement failed). Never
 * throws: a capture is a record, the call it records is already answered.
 */
export async function saveCaptureOfRequest(requestId: string, parts: CaptureParts): Promise<void> {
  try {
    if (!captureSwitchOn()) return;
    const [log] = await db.select({ id: t.logs.id }).from(t.logs).where(eq(t.logs.request_id, requestId)).limit(1);
    if (log) await saveCaptureOf(log.id, parts);
  } catch (error) {
    logger.warn("request capture not kept", { requestId, error: error instanceof Error ? error.message : String(error) });
  }
}

/**
 * GET /api/log/{id}/capture: the capture of a log entry, for the entry's user and the admins;
 * anyone else, an expired capture and a switched-off inspector get the same "not found".
 */
export async function readCapture(reader: { id: number; role: number }, logId: number): Promise<CaptureView> {
  const missing = notFound(captureMessages.notFound);
  if (!Number.isSafeInteger(logId) || !captureSwitchOn()) throw missing;
  const oldest = nowSeconds() - retentionSeconds();
  const [row] = await db
    .select()
    .from(t.log_captures)
    .where(and(eq(t.log_captures.log_id, logId), gte(t.log_captures.created_at, oldest)))
    .limit(1);
  if (!row || (!isAdmin(reader.role) && row.user_id !== reader.id)) throw missing;
  const createdAt = Number(row.created_at);
  const requestSize = Number(row.request_size);
  const responseSize = Number(row.response_size);
  return {
    log_id: row.log_id,
    user_id: row.user_id,
    created_at: createdAt,
    expires_at: createdAt + retentionSeconds(),
    method: row.method,
    path: row.path,
    request_headers: JSON.parse(row.request_headers) as Record<string, string>,
    request_body: row.request_body,
    request_size: requestSize,
    request_truncated: wasCut(row.request_body),
    response_status: row.response_status,
    response_body: row.response_body,
    response_size: responseSize,
    response_truncated: wasCut(row.response_body),
    is_stream: row.is_stream,
  };
}

/** Captures past their retention; the number removed. */
export async function deleteExpiredCaptures(): Promise<number> {
  const rows = await db
    .delete(t.log_captures)
    .where(lt(t.log_captures.created_at, nowSeconds() - retentionSeconds()))
    .returning({ id: t.log_captures.log_id });
  return rows.length;
}

/**
 * The site's switch went off: every window ends (capture_until back to 0 on every token and
 * user, so turning it on again starts nothing) and every kept body is deleted.
 */
export async function endAllCaptures(): Promise<number> {
  const tokens = await db.update(t.tokens).set({ capture_until: 0 }).where(ne(t.tokens.capture_until, 0)).returning({ key: t.tokens.key });
  const users = await db.update(t.users).set({ capture_until: 0 }).where(ne(t.users.capture_until, 0)).returning({ id: t.users.id });
  for (const token of tokens) await announceChange("tokens", token.key);
  for (const user of users) await announceChange("users", String(user.id));
  const rows = await db.delete(t.log_captures).returning({ id: t.log_captures.log_id });
  return rows.length;
}
