// The channel drawer's form state and how it maps to and from /api/channel (spec §3 Channel:
// comma strings on the wire, lists in the form). Defaults follow spec §9.
import { channelTypeInfo } from "../../src/services/channels/channel-types.ts";

export type ChannelForm = {
  type: number;
  name: string;
  key: string;
  batch: boolean;
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

/** The templates spec §9 names for the JSON fields. */
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
    batch: false,
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
};

const list = (text: string) => text.split(",").map((part) => part.trim()).filter(Boolean);

export function formOf(channel: ChannelRecord): ChannelForm {
  return {
    type: channel.type,
    name: channel.name,
    key: "",
    batch: false,
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

/** The request body; an edit without a new key leaves the stored key alone. */
export function bodyOf(form: ChannelForm, id?: number): Record<string, unknown> {
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
