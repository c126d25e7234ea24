// Channels with their keys, models, groups, mappings, priorities, weights, tags and settings;
// the abilities are rebuilt from them by the same function channel edits use, so selection sees
// exactly what an operator saving the channel would produce.
//
// new-api's multi-key channels (one channel, a key per line, polled or random) become one
// channel per key here, as new-api's batch mode would have created them; keys it had disabled
// stay disabled. The first keeps the channel's id (logs point at it), the others get new ids.
import { abilityRowsOf } from "../services/channels/abilities.ts";
import { channelTypeInfo } from "../services/channels/channel-types.ts";
import { noteUnreadColumns, shiftedChannel, type ImportContext, type TargetRow } from "./import-context.ts";
import { convertOneApiChannel } from "./one-api-channels.ts";
import type { SourceRow } from "./source-database.ts";
import { clip, floatOf, intOf, optionalTextOf, textOf } from "./source-values.ts";

const channelColumns = [
  "id", "type", "key", "open_ai_organization", "openai_organization", "test_model", "status", "name", "weight",
  "created_time", "test_time", "response_time", "base_url", "other", "balance", "balance_updated_time", "models",
  "group", "used_quota", "model_mapping", "status_code_mapping", "priority", "auto_ban", "other_info", "tag",
  "setting", "channel_info", "config",
];

export function noteChannelColumns(context: ImportContext): void {
  noteUnreadColumns(context, "channels", channelColumns);
  noteUnreadColumns(context, "abilities", ["group", "model", "channel_id", "enabled", "priority", "weight", "tag"]);
}

type MultiKey = { keys: string[]; disabled: Set<number> };

/** new-api's multi-key mode: the keys (JSON array for Vertex, else lines) and those it disabled. */
function multiKeyOf(row: SourceRow, key: string): MultiKey | null {
  let info: { is_multi_key?: boolean; multi_key_status_list?: Record<string, number> };
  try {
    info = JSON.parse(textOf(row, "channel_info") || "{}");
  } catch {
    return null;
  }
  if (!info?.is_multi_key) return null;
  const trimmed = key.trim();
  let keys: string[] = [];
  if (trimmed.startsWith("[")) {
    try {
      keys = (JSON.parse(trimmed) as unknown[]).map((item) => (typeof item === "string" ? item : JSON.stringify(item)));
    } catch {
      keys = [];
    }
  }
  if (keys.length === 0) keys = trimmed.split("\n").map((line) => line.trim()).filter(Boolean);
  const disabled = new Set(
    Object.entries(info.multi_key_status_list ?? {})
      .filter(([, status]) => status !== 1)
      .map(([index]) => Number(index)),
  );
  return keys.length > 1 ? { keys, disabled } : null;
}

export type MappedChannel = { channel: TargetRow<"channels">; abilities: TargetRow<"abilities">[] };

export function mapChannel(context: ImportContext, row: SourceRow): MappedChannel[] {
  const sourceId = intOf("channels", row, "id");
  const name = clip(textOf(row, "name"), 255);
  let type = intOf("channels", row, "type");
  let key = textOf(row, "key");
  let baseUrl = textOf(row, "base_url");
  let other = textOf(row, "other");
  let status = intOf("channels", row, "status", 1);
  if (context.schema.product === "one-api") {
    const converted = convertOneApiChannel(row, type);
    if ("unsupported" in converted) {
      context.report.skip("channels", "of a kind Switchyard does not serve (imported disabled, as OpenAI)", `${name} (${converted.unsupported})`);
      type = 1;
      status = 2;
    } else {
      ({ type, key, baseUrl, other } = converted);
    }
  } else if (!channelTypeInfo(type)) {
    context.report.skip("channels", "of a type Switchyard does not know (imported disabled)", `${name} (type ${type})`);
    status = 2;
  }
  const base: TargetRow<"channels"> = {
    id: shiftedChannel(context, sourceId),
    type,
    key,
    openai_organization: optionalTextOf(row, context.schema.has("channels", "open_ai_organization") ? "open_ai_organization" : "openai_organization"),
    test_model: optionalTextOf(row, "test_model"),
    status,
    name,
    weight: intOf("channels", row, "weight"),
    created_time: intOf("channels", row, "created_time"),
    test_time: intOf("channels", row, "test_time"),
    response_time: intOf("channels", row, "response_time"),
    base_url: baseUrl,
    other,
    balance: floatOf("channels", row, "balance"),
    balance_updated_time: intOf("channels", row, "balance_updated_time"),
    models: textOf(row, "models"),
    group: clip(textOf(row, "group") || "default", 255),
    used_quota: intOf("channels", row, "used_quota"),
    model_mapping: textOf(row, "model_mapping"),
    status_code_mapping: clip(textOf(row, "status_code_mapping"), 1024),
    priority: intOf("channels", row, "priority"),
    auto_ban: intOf("channels", row, "auto_ban", 1),
    other_info: textOf(row, "other_info"),
    tag: clip(textOf(row, "tag"), 64) || null,
    setting: textOf(row, "setting"),
    max_input_tokens: 0,
  };
  const multiKey = context.schema.product === "new-api" ? multiKeyOf(row, key) : null;
  const channels: TargetRow<"channels">[] = multiKey
    ? multiKey.keys.map((oneKey, index) => ({
        ...base,
        id: index === 0 ? base.id : context.nextChannelId++,
        key: oneKey,
        name: index === 0 ? name : clip(`${name} #${index + 1}`, 255),
        status: multiKey.disabled.has(index) && base.status === 1 ? 2 : base.status,
        // The channel's use so far stays with the channel the logs name.
        used_quota: index === 0 ? base.used_quota : 0,
      }))
    : [base];
  if (multiKey) context.report.skip("channels", "multi-key channels split into one channel per key", `${name} (${multiKey.keys.length} keys)`);
  return channels.map((channel) => {
    context.channelNames.set(channel.id!, channel.name!);
    return { channel, abilities: abilityRowsOf(channel as Parameters<typeof abilityRowsOf>[0]) };
  });
}
