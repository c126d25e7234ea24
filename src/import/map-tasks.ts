// Drawing (Midjourney) and asynchronous (Suno...) tasks, so users keep their history and
// unfinished tasks go on being followed by our poller on the same channel. The source settled
// their charges and refunds by its own rules, so a task that had already failed is marked
// refunded here: our refund sweep must not pay it back a second time.
import { noteUnreadColumns, shiftedChannel, shiftedToken, shiftedUser, type ImportContext, type TargetRow } from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { clip, intOf, textOf } from "./source-values.ts";

const failure = "FAILURE";

export function noteTaskColumns(context: ImportContext): void {
  noteUnreadColumns(context, "midjourneys", [
    "id",
    "code",
    "user_id",
    "action",
    "mj_id",
    "prompt",
    "prompt_en",
    "description",
    "state",
    "submit_time",
    "start_time",
    "finish_time",
    "image_url",
    "status",
    "progress",
    "fail_reason",
    "channel_id",
    "quota",
    "buttons",
    "properties",
    "token_id",
  ]);
  noteUnreadColumns(context, "tasks", [
    "id",
    "created_at",
    "updated_at",
    "task_id",
    "platform",
    "user_id",
    "channel_id",
    "quota",
    "action",
    "status",
    "fail_reason",
    "submit_time",
    "start_time",
    "finish_time",
    "progress",
    "properties",
    "data",
  ]);
}

function ownerKept(context: ImportContext, table: string, userId: number, example: string): boolean {
  if (!context.skippedUsers.has(userId)) return true;
  context.report.skip(table, "of users left out", example);
  return false;
}

export function mapMidjourney(context: ImportContext, row: SourceRow): TargetRow<"midjourneys"> | null {
  const userId = intOf("midjourneys", row, "user_id");
  const mjId = clip(textOf(row, "mj_id"), 64);
  if (!ownerKept(context, "midjourneys", userId, mjId)) return null;
  const status = clip(textOf(row, "status"), 20);
  return {
    id: intOf("midjourneys", row, "id") + context.shift.midjourneys,
    code: intOf("midjourneys", row, "code"),
    user_id: shiftedUser(context, userId),
    action: clip(textOf(row, "action"), 40),
    mj_id: mjId,
    prompt: textOf(row, "prompt"),
    prompt_en: textOf(row, "prompt_en"),
    description: textOf(row, "description"),
    state: textOf(row, "state"),
    submit_time: intOf("midjourneys", row, "submit_time"),
    start_time: intOf("midjourneys", row, "start_time"),
    finish_time: intOf("midjourneys", row, "finish_time"),
    image_url: textOf(row, "image_url"),
    status,
    progress: clip(textOf(row, "progress"), 30),
    fail_reason: textOf(row, "fail_reason"),
    channel_id: shiftedChannel(context, intOf("midjourneys", row, "channel_id")),
    quota: intOf("midjourneys", row, "quota"),
    buttons: textOf(row, "buttons"),
    properties: textOf(row, "properties"),
    token_id: shiftedToken(context, intOf("midjourneys", row, "token_id")),
    request_id: "",
    refunded: status === failure,
    notify_hook: "",
  };
}

export function mapTask(context: ImportContext, row: SourceRow): TargetRow<"tasks"> | null {
  const userId = intOf("tasks", row, "user_id");
  const taskId = clip(textOf(row, "task_id"), 191);
  if (!ownerKept(context, "tasks", userId, taskId)) return null;
  const status = clip(textOf(row, "status"), 20);
  return {
    id: intOf("tasks", row, "id") + context.shift.tasks,
    created_at: intOf("tasks", row, "created_at"),
    updated_at: intOf("tasks", row, "updated_at"),
    task_id: taskId,
    platform: clip(textOf(row, "platform"), 30),
    user_id: shiftedUser(context, userId),
    channel_id: shiftedChannel(context, intOf("tasks", row, "channel_id")),
    quota: intOf("tasks", row, "quota"),
    action: clip(textOf(row, "action"), 40),
    status,
    fail_reason: textOf(row, "fail_reason"),
    submit_time: intOf("tasks", row, "submit_time"),
    start_time: intOf("tasks", row, "start_time"),
    finish_time: intOf("tasks", row, "finish_time"),
    progress: clip(textOf(row, "progress"), 20),
    properties: textOf(row, "properties"),
    data: textOf(row, "data"),
    token_id: 0,
    request_id: "",
    refunded: status === failure,
  };
}
