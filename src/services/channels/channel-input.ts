// What a channel form or API client may send, and the channel form's rules applied
// on the server, with the specification's messages. Create needs every required field; update
// changes only the fields present (new-api's console sends {id, status} or {id, priority}).
import { z } from "zod";
import { invalid, invalidField } from "../../errors/app-error.ts";
import { integerField } from "../integer-field.ts";
import { parseInput } from "../parse-input.ts";
import { isVertexApiKey } from "./key-formats.ts";
import { ChannelType, channelTypeInfo } from "./channel-types.ts";

export const channelMessages = {
  nameAndKey: "请填写渠道名称和渠道密钥！",
  atLeastOneModel: "请至少选择一个模型！",
  modelMapping: "模型映射必须是合法的 JSON 格式！",
  statusCodeMapping: "状态码复写必须是合法的 JSON 格式！",
  setting: "渠道额外设置必须是合法的 JSON 格式！",
  priority: "优先级必须是整数！",
  weight: "权重必须是非负整数！",
  regionRequired: "部署地区不能为空",
  regionDefault: "部署地区必须包含default字段",
  vertexKey: "请输入 JSON 格式的服务账号凭证，或 Vertex AI 快速模式的 API Key",
  unknownType: "未知的渠道类型",
  modelNameTooLong: "模型名称过长: {{name}}",
  status: "无效的渠道状态",
  tooLong: "{{field}} 过长，最多 {{max}} 个字符",
} as const;

/**
 * The store's column limits (channels table), checked here so an over-long value gets a clear
 * message on every dialect (PostgreSQL would refuse it with a server error, SQLite would keep it).
 */
const columnLimits = { name: 255, test_model: 255, openai_organization: 128, group: 255, status_code_mapping: 1024, tag: 64 } as const;

export function withinLimit<T extends string | null>(field: keyof typeof columnLimits, value: T): T {
  if (value !== null && value.length > columnLimits[field])
    throw invalidField(field, channelMessages.tooLong, { field, max: columnLimits[field] });
  return value;
}

/** A list that arrives as a comma string (the wire) or an array (forms). */
const listOrCsv = z.union([z.string(), z.array(z.string())]);

export const channelFields = z.object({
  id: z.coerce.number().int().optional(),
  name: z.string().optional(),
  type: integerField(channelMessages.unknownType).optional(),
  key: z.string().nullish(),
  openai_organization: z.string().nullish(),
  test_model: z.string().nullish(),
  base_url: z.string().nullish(),
  other: z.string().nullish(),
  models: listOrCsv.nullish(),
  group: listOrCsv.nullish(),
  groups: z.array(z.string()).nullish(),
  model_mapping: z.string().nullish(),
  status_code_mapping: z.string().nullish(),
  setting: z.string().nullish(),
  priority: integerField(channelMessages.priority).nullish(),
  weight: integerField(channelMessages.weight).nullish(),
  auto_ban: integerField("无效的参数").nullish(),
  tag: z.string().nullish(),
  status: integerField(channelMessages.status).nullish(),
  max_input_tokens: integerField("无效的参数").nullish(),
  /** One channel holding several keys (channel-key-input.ts). */
  multi_key: z.boolean().nullish(),
  multi_key_mode: z.enum(["random", "polling"]).nullish(),
  /** An edit's key text adds to a multi-key channel's keys ("append") instead of replacing them. */
  key_mode: z.enum(["append", "replace"]).nullish(),
});

export type ChannelFields = {
  name: string;
  type: number;
  openai_organization: string | null;
  test_model: string | null;
  base_url: string;
  other: string;
  models: string;
  group: string;
  model_mapping: string;
  status_code_mapping: string;
  setting: string;
  priority: number;
  weight: number;
  auto_ban: number;
  tag: string | null;
  status: number;
  max_input_tokens: number;
};

/** Splits a comma list (or joins a form's array), trimming, dropping blanks and repeats. */
export function splitList(value: string | string[] | null | undefined): string[] {
  const parts = Array.isArray(value) ? value.flatMap((item) => item.split(",")) : (value ?? "").split(",");
  return [...new Set(parts.map((part) => part.trim()).filter(Boolean))];
}

function checkJsonObject(text: string, field: string, message: string): string {
  const trimmed = text.trim();
  if (trimmed === "") return "";
  try {
    const parsed = JSON.parse(trimmed);
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) return trimmed;
  } catch {
    // fall through to the message
  }
  throw invalidField(field, message);
}

/** Trailing slashes never belong to a base URL; nor does /v1, except on a custom full URL. */
export function normalizeBaseUrl(url: string, type: number): string {
  let result = url.trim().replace(/\/+$/, "");
  if (type !== ChannelType.Custom) result = result.replace(/\/v1$/, "").replace(/\/+$/, "");
  return result;
}

function normalizeOther(type: number, other: string): string {
  const value = other.trim();
  if (type === ChannelType.Azure && value === "") return channelTypeInfo(type)!.other!.defaultValue!;
  if (type === ChannelType.Spark && value === "") return channelTypeInfo(type)!.other!.defaultValue!;
  if (type === ChannelType.Vertex) {
    if (value === "") throw invalidField("other", channelMessages.regionRequired);
    if (value.startsWith("{")) {
      let regions: unknown;
      try {
        regions = JSON.parse(value);
      } catch {
        throw invalidField("other", channelMessages.regionDefault);
      }
      if (!regions || typeof regions !== "object" || !("default" in regions)) throw invalidField("other", channelMessages.regionDefault);
    }
  }
  return value;
}

function normalizeModels(value: string | string[] | null | undefined): string {
  const models = splitList(value);
  if (models.length === 0) throw invalidField("models", channelMessages.atLeastOneModel);
  const tooLong = models.find((model) => model.length > 255);
  if (tooLong) throw invalidField("models", channelMessages.modelNameTooLong, { name: tooLong });
  return models.join(",");
}

function normalizeGroups(value: string | string[] | null | undefined): string {
  const groups = splitList(value);
  return (groups.length ? groups : ["default"]).join(",");
}

function checkType(type: number): number {
  if (!channelTypeInfo(type)) throw invalid(channelMessages.unknownType);
  return type;
}

function checkStatus(status: number): number {
  if (![1, 2, 3].includes(status)) throw invalid(channelMessages.status);
  return status;
}

type RawChannel = z.output<typeof channelFields>;

export function parseChannelBody(body: unknown): RawChannel {
  return parseInput(channelFields, body, true);
}

/** The keys of a create request: one per line, except types whose key is one JSON document. */
export function splitKeys(raw: RawChannel, splitLines: boolean): string[] {
  const key = (raw.key ?? "").trim();
  const info = channelTypeInfo(raw.type ?? ChannelType.OpenAI);
  if (!splitLines || info?.jsonKey) return key ? [key] : [];
  return [
    ...new Set(
      key
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** A Vertex key is a service-account key file (JSON), or an API key of Vertex AI in express mode. */
export function checkVertexKey(type: number, key: string): void {
  if (type !== ChannelType.Vertex) return;
  if (isVertexApiKey(key)) return;
  try {
    const parsed = JSON.parse(key);
    if (parsed && typeof parsed === "object") return;
  } catch {
    // fall through
  }
  throw invalidField("key", channelMessages.vertexKey);
}

/** A complete, normalised channel for creation (the keys are handled by the caller). */
export function channelForCreate(raw: RawChannel): ChannelFields {
  const name = (raw.name ?? "").trim();
  if (!name || !(raw.key ?? "").trim()) throw invalidField(name ? "key" : "name", channelMessages.nameAndKey);
  const type = checkType(raw.type ?? ChannelType.OpenAI);
  return {
    name: withinLimit("name", name),
    type,
    openai_organization: withinLimit("openai_organization", raw.openai_organization?.trim() || null),
    test_model: withinLimit("test_model", raw.test_model?.trim() || null),
    base_url: normalizeBaseUrl(raw.base_url ?? "", type),
    other: normalizeOther(type, raw.other ?? ""),
    models: normalizeModels(raw.models),
    group: withinLimit("group", normalizeGroups(raw.groups ?? raw.group)),
    model_mapping: checkJsonObject(raw.model_mapping ?? "", "model_mapping", channelMessages.modelMapping),
    status_code_mapping: withinLimit(
      "status_code_mapping",
      checkJsonObject(raw.status_code_mapping ?? "", "status_code_mapping", channelMessages.statusCodeMapping),
    ),
    setting: checkJsonObject(raw.setting ?? "", "setting", channelMessages.setting),
    priority: raw.priority ?? 0,
    // A single channel's weight below 0 becomes 0, as new-api does.
    weight: Math.max(0, raw.weight ?? 0),
    auto_ban: raw.auto_ban === 0 ? 0 : 1,
    tag: withinLimit("tag", raw.tag?.trim() || null),
    status: checkStatus(raw.status ?? 1),
    max_input_tokens: Math.max(0, raw.max_input_tokens ?? 0),
  };
}

/**
 * The fields an update changes, normalised. `current` supplies the type and the other values a
 * rule depends on (a base URL is normalised for the channel's type, even if only the URL changes).
 */
export function channelChanges(raw: RawChannel, current: ChannelFields): Partial<ChannelFields> {
  const changes: Partial<ChannelFields> = {};
  const type = raw.type !== undefined ? checkType(raw.type) : current.type;
  if (raw.type !== undefined) changes.type = type;
  if (raw.name !== undefined) {
    const name = raw.name.trim();
    if (!name) throw invalidField("name", channelMessages.nameAndKey);
    changes.name = withinLimit("name", name);
  }
  if (raw.openai_organization !== undefined)
    changes.openai_organization = withinLimit("openai_organization", raw.openai_organization?.trim() || null);
  if (raw.test_model !== undefined) changes.test_model = withinLimit("test_model", raw.test_model?.trim() || null);
  if (raw.base_url !== undefined || raw.type !== undefined) changes.base_url = normalizeBaseUrl(raw.base_url ?? current.base_url, type);
  if (raw.other !== undefined || raw.type !== undefined) changes.other = normalizeOther(type, raw.other ?? current.other);
  if (raw.models !== undefined && raw.models !== null) changes.models = normalizeModels(raw.models);
  if ((raw.groups ?? raw.group) != null) changes.group = withinLimit("group", normalizeGroups(raw.groups ?? raw.group));
  if (raw.model_mapping != null) changes.model_mapping = checkJsonObject(raw.model_mapping, "model_mapping", channelMessages.modelMapping);
  if (raw.status_code_mapping != null) {
    changes.status_code_mapping = withinLimit(
      "status_code_mapping",
      checkJsonObject(raw.status_code_mapping, "status_code_mapping", channelMessages.statusCodeMapping),
    );
  }
  if (raw.setting != null) changes.setting = checkJsonObject(raw.setting, "setting", channelMessages.setting);
  if (raw.priority != null) changes.priority = raw.priority;
  if (raw.weight != null) changes.weight = Math.max(0, raw.weight);
  if (raw.auto_ban != null) changes.auto_ban = raw.auto_ban === 0 ? 0 : 1;
  if (raw.tag !== undefined) changes.tag = withinLimit("tag", raw.tag?.trim() || null);
  if (raw.status != null) changes.status = checkStatus(raw.status);
  if (raw.max_input_tokens != null) changes.max_input_tokens = Math.max(0, raw.max_input_tokens);
  return changes;
}
