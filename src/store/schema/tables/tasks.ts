// Drawing (Midjourney) tasks and other asynchronous tasks such as Suno (new-api's
// task columns). Besides those fields a row knows how it was paid for: the token and the
// relay request id of its charge (the consumption log carries the same request id), and whether
// that charge was refunded, so a failed or timed-out task is refunded exactly once.
import { sql } from "drizzle-orm";
import type { Kit } from "../kit.ts";

export const defineMidjourneys = (k: Kit) =>
  k.table(
    "midjourneys",
    {
      id: k.id(),
      code: k.int("code").notNull().default(0),
      user_id: k.int("user_id").notNull().default(0),
      action: k.varchar("action", 40).notNull().default(""),
      mj_id: k.varchar("mj_id", 64).notNull().default(""),
      prompt: k.text("prompt").notNull().default(""),
      prompt_en: k.text("prompt_en").notNull().default(""),
      description: k.text("description").notNull().default(""),
      state: k.text("state").notNull().default(""),
      /** Milliseconds. */
      submit_time: k.bigint("submit_time").notNull().default(0),
      start_time: k.bigint("start_time").notNull().default(0),
      finish_time: k.bigint("finish_time").notNull().default(0),
      image_url: k.text("image_url").notNull().default(""),
      status: k.varchar("status", 20).notNull().default(""),
      progress: k.varchar("progress", 30).notNull().default(""),
      fail_reason: k.text("fail_reason").notNull().default(""),
      channel_id: k.int("channel_id").notNull().default(0),
      quota: k.bigint("quota").notNull().default(0),
      buttons: k.text("buttons").notNull().default(""),
      properties: k.text("properties").notNull().default(""),
      token_id: k.int("token_id").notNull().default(0),
      /** The charge's relay request id ("" when nothing was charged). */
      request_id: k.varchar("request_id", 64).notNull().default(""),
      refunded: k.bool("refunded").notNull().default(false),
      /** The client's own callback URL, called when the task changes (MjNotifyEnabled). */
      notify_hook: k.text("notify_hook").notNull().default(""),
      /** Which key of a multi-key channel took the task (its follow-ups and polls use it); -1: the channel's own key. */
      key_index: k.int("key_index").notNull().default(-1),
    },
    (table) => [
      k.index("midjourneys_user_id_index").on(table.user_id),
      k.index("midjourneys_mj_id_index").on(table.mj_id),
      k.index("midjourneys_submit_time_index").on(table.submit_time),
      k.index("midjourneys_progress_index").on(table.progress),
      // What the poller picks (task-store.ts repeats this condition literally, so both stores use it).
      k.index("midjourneys_unfinished_index").on(table.id).where(sql`status not in ('SUCCESS', 'FAILURE')`),
    ],
  );

export const defineTasks = (k: Kit) =>
  k.table(
    "tasks",
    {
      id: k.id(),
      created_at: k.bigint("created_at").notNull().default(0),
      updated_at: k.bigint("updated_at").notNull().default(0),
      task_id: k.varchar("task_id", 191).notNull().default(""),
      platform: k.varchar("platform", 30).notNull().default(""),
      user_id: k.int("user_id").notNull().default(0),
      channel_id: k.int("channel_id").notNull().default(0),
      quota: k.bigint("quota").notNull().default(0),
      action: k.varchar("action", 40).notNull().default(""),
      /** SUCCESS, NOT_START, SUBMITTED, IN_PROGRESS, FAILURE, QUEUED, UNKNOWN or empty. */
      status: k.varchar("status", 20).notNull().default(""),
      fail_reason: k.text("fail_reason").notNull().default(""),
      /** Unix seconds. */
      submit_time: k.bigint("submit_time").notNull().default(0),
      start_time: k.bigint("start_time").notNull().default(0),
      finish_time: k.bigint("finish_time").notNull().default(0),
      progress: k.varchar("progress", 20).notNull().default(""),
      properties: k.text("properties").notNull().default(""),
      data: k.text("data").notNull().default(""),
      token_id: k.int("token_id").notNull().default(0),
      request_id: k.varchar("request_id", 64).notNull().default(""),
      refunded: k.bool("refunded").notNull().default(false),
      /** Which key of a multi-key channel took the task (its polls use it); -1: the channel's own key. */
      key_index: k.int("key_index").notNull().default(-1),
    },
    (table) => [
      k.index("tasks_task_id_index").on(table.task_id),
      k.index("tasks_user_id_index").on(table.user_id),
      k.index("tasks_platform_index").on(table.platform),
      k.index("tasks_submit_time_index").on(table.submit_time),
      k.index("tasks_progress_index").on(table.progress),
      k.index("tasks_unfinished_index").on(table.id).where(sql`status not in ('SUCCESS', 'FAILURE')`),
    ],
  );
