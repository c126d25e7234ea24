// The channel drawer's form state and how it maps to and from /api/channel (comma
// strings on the wire, lists in the form). Defaults are new-api's (docs/COMPATIBILITY.md, Defaults and limits).
import { channelTypeInfo } from "../../src/services/channels/channel-types.ts";

export type KeyMode = "single" | "batch" | "multi";

export type ChannelForm = {
  type: number;
  name: string;
  key: string;
  /** single: one key; batch: one channel per key line; multi: one channel holding every key. */
  keyMode: KeyMode;
  /** How a multi-key channel picks its key. */
  multiKeyMode: "random" | "polling";
  /** Editing a multi-key channel: the key text adds to its keys instead of replacing them. */
  appendKeys: boolean;
  /** The channel being edited holds several keys already. */
  wasMultiKey: boolean;
  base_url: string;
  other: string;
  openai_organization: string;
  models: string[];
  groups: string[];
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  test_model: string;
  priority: string;
  weight: string;
  auto_ban: boolean;
  tag: string;
};

/** The templates new-api offers for the JSON fields. */
export const templates = {
  model_mapping: JSON.stringify({ "gpt-3.5-turbo": "gpt-3.5-turbo-0125" }, null, 2),
  status_code_mapping: JSON.stringify({ "400": "500" }, null, 2),
  setting: JSON.stringify({ force_format: true }, null, 2),
};

export function emptyForm(type = 1): ChannelForm {
  const info = channelTypeInfo(type);
  return {
    type,
    name: "",
    key: "",
    keyMode: "single",
    multiKeyMode: "random",
    appendKeys: true,
    wasMultiKey: false,
    base_url: "",
    other: info?.other?.defaultValue ?? "",
    openai_organization: "",
    models: [...(info?.models ?? [])],
    groups: ["default"],
    model_mapping: "",
    status_code_mapping: "",
    setting: "",
    test_model: "",
    priority: "0",
    weight: "0",
    auto_ban: true,
    tag: "",
  };
}

/** Switching the type (when creating) brings that type's models and `other` default. */
export function withType(form: ChannelForm, type: number): ChannelForm {
  const before = channelTypeInfo(form.type);
  const after = channelTypeInfo(type);
  const otherIsDefault = form.other === "" || form.other === (before?.other?.defaultValue ?? "");
  return {
    ...form,
    type,
    models: [...(after?.models ?? [])],
    other: otherIsDefault ? (after?.other?.defaultValue ?? "") : form.other,
  };
}

export type ChannelRecord = {
  id: number;
  type: number;
  name: string;
  base_url: string;
  other: string;
  openai_organization: string | null;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  test_model: string | null;
  priority: number;
  weight: number;
  auto_ban: number;
  tag: string | null;
  channel_info?: string;
};

function multiKeyInfoOf(channel: ChannelRecord): { multi: boolean; mode: "random" | "polling" } {
  try {
    const info = JSON.parse(channel.channel_info || "{}") as { is_multi_key?: boolean; multi_key_mode?: string };
    return { multi: info.is_multi_key === true, mode: info.multi_key_mode === "polling" ? "polling" : "random" };
  } catch {
    return { multi: false, mode: "random" };
  }
}

const list = (text: string) =>
  text
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);

export function formOf(channel: ChannelRecord): ChannelForm {
  const keys = multiKeyInfoOf(channel);
  return {
    type: channel.type,
    name: channel.name,
    key: "",
    keyMode: keys.multi ? "multi" : "single",
    multiKeyMode: keys.mode,
    appendKeys: true,
    wasMultiKey: keys.multi,
    base_url: channel.base_url,
    other: channel.other,
    openai_organization: channel.openai_organization ?? "",
    models: list(channel.models),
    groups: list(channel.group),
    model_mapping: channel.model_mapping,
    status_code_mapping: channel.status_code_mapping,
    setting: channel.setting,
    test_model: channel.test_model ?? "",
    priority: String(channel.priority),
    weight: String(channel.weight),
    auto_ban: channel.auto_ban === 1,
    tag: channel.tag ?? "",
  };
}

/**
 * The request body; an edit without a new key leaves the stored key alone. A new multi-key
 * channel goes in new-api's form ({mode: "multi_to_single", multi_key_mode, channel}).
 */
export function bodyOf(form: ChannelForm, id?: number): Record<string, unknown> {
  const channel = channelBodyOf(form, id);
  if (id === undefined) {
    if (form.keyMode === "multi") return { mode: "multi_to_single", multi_key_mode: form.multiKeyMode, channel };
    // One key, or one channel per key line (the server splits the lines, as before).
    return channel;
  }
  if (form.keyMode !== "multi") return channel;
  return {
    ...channel,
    multi_key: true,
    multi_key_mode: form.multiKeyMode,
    ...(form.key.trim() ? { key_mode: form.wasMultiKey && form.appendKeys ? "append" : "replace" } : {}),
  };
}

function channelBodyOf(form: ChannelForm, id?: number): Record<string, unknown> {
  return {
    ...(id !== undefined ? { id } : {}),
    type: form.type,
    name: form.name,
    ...(id === undefined || form.key.trim() ? { key: form.key } : {}),
    base_url: form.base_url,
    other: form.other,
    openai_organization: form.openai_organization,
    models: form.models.join(","),
    group: form.groups.join(","),
    model_mapping: form.model_mapping,
    status_code_mapping: form.status_code_mapping,
    setting: form.setting,
    test_model: form.test_model,
    priority: form.priority,
    weight: form.weight,
    auto_ban: form.auto_ban ? 1 : 0,
    tag: form.tag,
  };
}
