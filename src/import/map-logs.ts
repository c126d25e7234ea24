// Log entries (--with-logs). Quotas, token counts, times and types are copied exactly, so sums
// over the imported logs equal the source's, and so are the clients' addresses. new-api's error
// entries (5) stay error entries (Switchyard records refused and failed calls the same way); its
// task refunds (6) become system entries (4) with refund: true, as our own refunds are. Request ids
// stay out of the unique request_id column (that one guards our own settlements): one-api's goes
// into `other`.
import { LogType } from "../services/logs/log-types.ts";
import { noteUnreadColumns, shiftedChannel, shiftedToken, shiftedUser, type ImportContext, type TargetRow } from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { boolOf, clip, intOf, textOf } from "./source-values.ts";

const sourceErrorType = 5;
const sourceRefundType = 6;

export function noteLogColumns(context: ImportContext): void {
  noteUnreadColumns(context, "logs", [
    "id",
    "user_id",
    "created_at",
    "type",
    "content",
    "username",
    "token_name",
    "model_name",
    "quota",
    "prompt_tokens",
    "completion_tokens",
    "use_time",
    "elapsed_time",
    "is_stream",
    "channel_id",
    "token_id",
    "group",
    "other",
    "request_id",
    "ip",
  ]);
}

function otherWith(text: string, extra: Record<string, unknown>): string {
  if (Object.keys(extra).length === 0) return text;
  let other: Record<string, unknown> = {};
  try {
    const parsed = text ? JSON.parse(text) : {};
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) other = parsed;
  } catch {
    other = { original_other: text };
  }
  return JSON.stringify({ ...other, ...extra });
}

export function mapLog(context: ImportContext, row: SourceRow): TargetRow<"logs"> | null {
  const userId = intOf("logs", row, "user_id");
  if (context.skippedUsers.has(userId)) {
    context.report.skip("logs", "of users left out", String(intOf("logs", row, "id")));
    return null;
  }
  const sourceType = intOf("logs", row, "type");
  const extra: Record<string, unknown> = {};
  let type = sourceType;
  if (sourceType === sourceErrorType) {
    type = LogType.error;
  } else if (sourceType === sourceRefundType) {
    type = LogType.system;
    extra.refund = true;
    context.report.skip("logs", "refund entries (type 6) stored as system entries (type 4) with other.refund true");
  } else if (sourceType < 0 || sourceType > LogType.error) {
    type = LogType.system;
    extra.source_type = sourceType;
    context.report.skip("logs", "entries of an unknown type stored as system entries (type 4) with other.source_type");
  }
  const requestId = textOf(row, "request_id");
  if (requestId) extra.source_request_id = requestId;
  const channelId = shiftedChannel(context, intOf("logs", row, "channel_id"));
  // one-api measures in milliseconds (elapsed_time), new-api in seconds (use_time).
  const useTime = context.schema.has("logs", "use_time")
    ? intOf("logs", row, "use_time")
    : Math.round(intOf("logs", row, "elapsed_time") / 1000);
  return {
    id: intOf("logs", row, "id") + context.shift.logs,
    user_id: shiftedUser(context, userId),
    created_at: intOf("logs", row, "created_at"),
    type,
    content: textOf(row, "content"),
    username: clip(textOf(row, "username"), 64),
    token_name: clip(textOf(row, "token_name"), 64),
    token_id: shiftedToken(context, intOf("logs", row, "token_id")),
    model_name: clip(textOf(row, "model_name"), 255),
    quota: intOf("logs", row, "quota"),
    prompt_tokens: intOf("logs", row, "prompt_tokens"),
    completion_tokens: intOf("logs", row, "completion_tokens"),
    use_time: useTime,
    is_stream: boolOf(row, "is_stream"),
    channel_id: channelId,
    channel_name: clip(context.channelNames.get(channelId) ?? "", 255),
    group: clip(textOf(row, "group"), 64),
    other: otherWith(textOf(row, "other"), extra),
    request_id: null,
    ip: clip(textOf(row, "ip"), 64),
  };
}
