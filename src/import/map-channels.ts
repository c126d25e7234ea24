// Channels with their keys, models, groups, mappings, priorities, weights, tags and settings;
// the abilities are rebuilt from them by the same function channel edits use, so selection sees
// exactly what an operator saving the channel would produce.
//
// new-api's multi-key channels stay multi-key channels: the key column (one key per line, a JSON
// array of key files for Vertex) and channel_info (is_multi_key, multi_key_mode and each key's
// status, reason and time) are kept as new-api stored them, which is how Switchyard stores them
// (services/channels/channel-keys.ts). A channel whose every key was disabled is disabled too.
//
// new-api keeps a Baidu Qianfan v2 (46) key with its app id as `key|appid`; here the app id is
// the channel's other field, so such a key is split (the relay takes both forms, and keeps the
// key's own app id when the channel already names another).
import { abilityRowsOf } from "../services/channels/abilities.ts";
import {
  allKeysDisabled,
  type ChannelInfo,
  isMultiKey,
  multiKeyModeOf,
  parseChannelInfo,
  splitKeyText,
} from "../services/channels/channel-keys.ts";
import { channelTypeInfo } from "../services/channels/channel-types.ts";
import { noteUnreadColumns, shiftedChannel, type ImportContext, type TargetRow } from "./import-context.ts";
import { convertOneApiChannel } from "./one-api-channels.ts";
import type { SourceRow } from "./source-database.ts";
import { clip, floatOf, intOf, optionalTextOf, textOf } from "./source-values.ts";

const channelColumns = [
  "id",
  "type",
  "key",
  "open_ai_organization",
  "openai_organization",
  "test_model",
  "status",
  "name",
  "weight",
  "created_time",
  "test_time",
  "response_time",
  "base_url",
  "other",
  "balance",
  "balance_updated_time",
  "models",
  "group",
  "used_quota",
  "model_mapping",
  "status_code_mapping",
  "priority",
  "auto_ban",
  "other_info",
  "tag",
  "setting",
  "channel_info",
  "config",
];

export function noteChannelColumns(context: ImportContext): void {
  noteUnreadColumns(context, "channels", channelColumns);
  noteUnreadColumns(context, "abilities", ["group", "model", "channel_id", "enabled", "priority", "weight", "tag"]);
}

/** new-api's channel_info, kept for a multi-key channel (its known fields only) and dropped otherwise. */
function channelInfoOf(row: SourceRow, type: number, key: string): { channel_info: string; allDisabled: boolean } {
  const info = parseChannelInfo(textOf(row, "channel_info"));
  if (!isMultiKey(info)) return { channel_info: "", allDisabled: false };
  const count = splitKeyText(type, key).length;
  const kept: ChannelInfo = {
    is_multi_key: true,
    multi_key_size: count,
    multi_key_mode: multiKeyModeOf(info),
    multi_key_status_list: numbersOf(info.multi_key_status_list),
    multi_key_disabled_reason: textsOf(info.multi_key_disabled_reason),
    multi_key_disabled_time: numbersOf(info.multi_key_disabled_time),
    multi_key_polling_index: 0,
  };
  return { channel_info: JSON.stringify(kept), allDisabled: allKeysDisabled(kept, count) };
}

const numbersOf = (value: unknown) =>
  Object.fromEntries(Object.entries(value && typeof value === "object" ? value : {}).filter(([, item]) => Number.isInteger(item)));
const textsOf = (value: unknown) =>
  Object.fromEntries(Object.entries(value && typeof value === "object" ? value : {}).filter(([, item]) => typeof item === "string"));

export type MappedChannel = { channel: TargetRow<"channels">; abilities: TargetRow<"abilities">[] };

const qianfanV2 = 46;

/** A Qianfan v2 `key|appid` as the key and its app id in the other field (when the field is free). */
function qianfanAppId(channel: TargetRow<"channels">): TargetRow<"channels"> {
  const key = channel.key ?? "";
  const bar = key.indexOf("|");
  if (channel.type !== qianfanV2 || bar < 0 || channel.channel_info) return channel;
  const appId = key.slice(bar + 1).trim();
  const other = (channel.other ?? "").trim();
  if (!appId || (other && other !== appId)) return channel;
  return { ...channel, key: key.slice(0, bar).trim(), other: appId };
}

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
      context.report.skip(
        "channels",
        "of a kind Switchyard does not serve (imported disabled, as OpenAI)",
        `${name} (${converted.unsupported})`,
      );
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
    openai_organization: optionalTextOf(
      row,
      context.schema.has("channels", "open_ai_organization") ? "open_ai_organization" : "openai_organization",
    ),
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
  const keys = context.schema.product === "new-api" ? channelInfoOf(row, type, key) : { channel_info: "", allDisabled: false };
  base.channel_info = keys.channel_info;
  if (keys.allDisabled && base.status === 1) base.status = 3;
  const channels: TargetRow<"channels">[] = [base];
  return channels.map(qianfanAppId).map((channel) => {
    if (channel.type === qianfanV2 && channel.key !== channels.find((source) => source.id === channel.id)?.key)
      context.report.skip(
        "channels",
        "Baidu Qianfan v2 keys given as key|appid: the app id moved to the channel's other field",
        channel.name!,
      );
    context.channelNames.set(channel.id!, channel.name!);
    return { channel, abilities: abilityRowsOf(channel as Parameters<typeof abilityRowsOf>[0]) };
  });
}
