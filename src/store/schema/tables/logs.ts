// Usage, top-up, admin and system log entries (docs/COMPATIBILITY.md, Log types). The indexes follow the log
// page's filters: a time range, narrowed by user, type, model, token, channel or group.
import type { Kit } from "../kit.ts";

export const defineLogs = (k: Kit) =>
  k.table(
    "logs",
    {
      id: k.id(),
      user_id: k.int("user_id").notNull().default(0),
      created_at: k.bigint("created_at").notNull().default(0),
      /** 1 top-up, 2 consumption, 3 admin, 4 system, 5 a refused or failed relay call (0 reads as consumption). */
      type: k.int("type").notNull().default(0),
      content: k.text("content").notNull().default(""),
      username: k.varchar("username", 64).notNull().default(""),
      token_name: k.varchar("token_name", 64).notNull().default(""),
      token_id: k.int("token_id").notNull().default(0),
      model_name: k.varchar("model_name", 255).notNull().default(""),
      quota: k.bigint("quota").notNull().default(0),
      prompt_tokens: k.bigint("prompt_tokens").notNull().default(0),
      completion_tokens: k.bigint("completion_tokens").notNull().default(0),
      /** Seconds. */
      use_time: k.int("use_time").notNull().default(0),
      is_stream: k.bool("is_stream").notNull().default(false),
      channel_id: k.int("channel_id").notNull().default(0),
      channel_name: k.varchar("channel_name", 255).notNull().default(""),
      group: k.varchar("group", 64).notNull().default(""),
      /** JSON text: frt, ratios, model mapping, admin_info.use_channel, reasoning_effort... */
      other: k.text("other").notNull().default(""),
      /** Relay request id; unique so one request can never be settled twice. */
      request_id: k.varchar("request_id", 64),
      /** The client's address (relay calls: consumption and error entries), shown to admins only. */
      ip: k.varchar("ip", 64).notNull().default(""),
    },
    (table) => [
      k.index("logs_created_at_index").on(table.created_at),
      k.index("logs_user_created_index").on(table.user_id, table.created_at),
      k.index("logs_type_created_index").on(table.type, table.created_at),
      // Each filter with the time: a filtered page is read in time order and its count comes
      // from the index alone (bench/pages.ts: /log filtered by model and token over 100k rows went from 145 to 24 ms).
      k.index("logs_model_created_index").on(table.model_name, table.created_at),
      k.index("logs_token_created_index").on(table.token_name, table.created_at),
      k.index("logs_username_created_index").on(table.username, table.created_at),
      k.index("logs_channel_created_index").on(table.channel_id, table.created_at),
      k.index("logs_group_created_index").on(table.group, table.created_at),
      k.index("logs_ip_created_index").on(table.ip, table.created_at),
      k.uniqueIndex("logs_request_id_unique").on(table.request_id),
    ],
  );
