// Upstream provider channels and their abilities (docs/COMPATIBILITY.md, Channel types). An ability row says
// "channel C serves model M for group G" with the channel's priority and weight copied in, so
// channel selection reads one indexed table (or its cached copy) instead of parsing CSV fields.
import type { Kit } from "../kit.ts";

export const defineChannels = (k: Kit) =>
  k.table(
    "channels",
    {
      id: k.id(),
      type: k.int("type").notNull().default(0),
      key: k.text("key").notNull(),
      openai_organization: k.varchar("openai_organization", 128),
      test_model: k.varchar("test_model", 255),
      /** 1 enabled, 2 disabled by hand, 3 disabled automatically. */
      status: k.int("status").notNull().default(1),
      name: k.varchar("name", 255).notNull().default(""),
      weight: k.int("weight").notNull().default(0),
      created_time: k.bigint("created_time").notNull().default(0),
      test_time: k.bigint("test_time").notNull().default(0),
      /** Milliseconds of the last test. */
      response_time: k.int("response_time").notNull().default(0),
      base_url: k.text("base_url").notNull().default(""),
      other: k.text("other").notNull().default(""),
      balance: k.float("balance").notNull().default(0),
      balance_updated_time: k.bigint("balance_updated_time").notNull().default(0),
      /** Comma separated model names. */
      models: k.text("models").notNull().default(""),
      /** Comma separated group names. */
      group: k.varchar("group", 255).notNull().default("default"),
      used_quota: k.bigint("used_quota").notNull().default(0),
      model_mapping: k.text("model_mapping").notNull().default(""),
      status_code_mapping: k.varchar("status_code_mapping", 1024).notNull().default(""),
      priority: k.bigint("priority").notNull().default(0),
      auto_ban: k.int("auto_ban").notNull().default(1),
      /** JSON text: status_reason and status_time of an automatic disable. */
      other_info: k.text("other_info").notNull().default(""),
      tag: k.varchar("tag", 64),
      /** JSON text: force_format, thinking_to_content, proxy. */
      setting: k.text("setting").notNull().default(""),
      /**
       * JSON text in new-api's shape: is_multi_key (the key column then holds one key per line),
       * multi_key_mode ("random" | "polling"), and per key index its status (2 disabled by hand,
       * 3 automatically; absent = enabled), disabled reason and time.
       */
      channel_info: k.text("channel_info").notNull().default(""),
      max_input_tokens: k.int("max_input_tokens").notNull().default(0),
      /** Quota its requests cost that the users' balances could not pay (the balance stops at zero). */
      uncollected_quota: k.bigint("uncollected_quota").notNull().default(0),
      /** Answers whose reported completion exceeded the request's max_tokens, and when the last came. */
      over_limit_count: k.int("over_limit_count").notNull().default(0),
      over_limit_at: k.bigint("over_limit_at").notNull().default(0),
    },
    (table) => [
      k.index("channels_name_index").on(table.name),
      k.index("channels_tag_index").on(table.tag),
      k.index("channels_status_index").on(table.status),
    ],
  );

export const defineAbilities = (k: Kit, channels: { id: any }) =>
  k.table(
    "abilities",
    {
      group: k.varchar("group", 64).notNull(),
      model: k.varchar("model", 255).notNull(),
      channel_id: k
        .int("channel_id")
        .notNull()
        .references(() => channels.id, { onDelete: "cascade" }),
      enabled: k.bool("enabled").notNull().default(true),
      priority: k.bigint("priority").notNull().default(0),
      weight: k.int("weight").notNull().default(0),
      tag: k.varchar("tag", 64),
    },
    (table) => [
      k.primaryKey({ columns: [table.group, table.model, table.channel_id] }),
      k.index("abilities_lookup_index").on(table.group, table.model, table.enabled, table.priority),
      k.index("abilities_channel_id_index").on(table.channel_id),
      k.index("abilities_tag_index").on(table.tag),
    ],
  );
