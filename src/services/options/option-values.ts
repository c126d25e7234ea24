// Turns a submitted option value into the text the store keeps, or refuses it with the
// specification's message. Pure: it sees the registry and the values around it, nothing else.
import { z } from "zod";
import { AppError, invalid } from "../../errors/app-error.ts";
import { checkPriceTiers } from "../pricing/price-tiers.ts";
import { isSafeChatTemplate, isWebLink } from "./link-rules.ts";
import { definitionOf, internalOptionKeys, isOptionKey, type OptionDefinition, type OptionKey } from "./option-registry.ts";

export type OptionChange = { key: string; value: unknown };

const optionChange = z.object({ key: z.string(), value: z.unknown() });

/** PUT /api/option/: one {key, value}, or a list of them saved together. */
export const optionChangesInput = z.union([optionChange, z.array(optionChange).min(1)]);

function asText(value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return JSON.stringify(value);
}

function checkJsonShape(definition: OptionDefinition, parsed: unknown, message: string): void {
  const isPlainObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  switch (definition.jsonShape) {
    case "array":
      if (!Array.isArray(parsed)) throw invalid(message);
      return;
    case "object":
      if (!isPlainObject) throw invalid(message);
      return;
    case "object-of-strings":
      if (!isPlainObject || Object.values(parsed as object).some((v) => typeof v !== "string")) throw invalid(message);
      return;
    case "object-of-numbers":
      if (!isPlainObject || Object.values(parsed as object).some((v) => typeof v !== "number" || !Number.isFinite(v))) {
        throw invalid(message);
      }
      if (Object.values(parsed as object).some((v) => (v as number) < 0)) throw invalid("倍率和价格不能为负数");
      return;
    case "price-tiers":
      checkPriceTiers(parsed);
      return;
  }
}

/** Every {name: template} of the Chats list opens a page or an app, never script. */
function checkChatTemplates(parsed: unknown): void {
  for (const item of parsed as unknown[]) {
    if (!item || typeof item !== "object") continue;
    for (const [name, template] of Object.entries(item as Record<string, unknown>)) {
      if (typeof template === "string" && !isSafeChatTemplate(template))
        throw invalid("聊天链接 {{name}} 只能是 http(s) 链接或应用链接", { name });
    }
  }
}

/** Validates one change; returns the key and the normalised text to store. */
export function normalizeOptionChange(change: OptionChange): { key: OptionKey; value: string } {
  const key = String(change.key ?? "");
  if (!isOptionKey(key) || internalOptionKeys.has(key)) {
    throw new AppError("invalid", "未知的配置项：{{key}}", { key });
  }
  const definition = definitionOf(key);
  let value = asText(change.value);
  switch (definition.kind) {
    case "bool": {
      const lowered = value.trim().toLowerCase();
      if (lowered !== "true" && lowered !== "false") throw invalid("配置项 {{key}} 只能是 true 或 false", { key });
      value = lowered;
      break;
    }
    case "int":
    case "float": {
      const trimmed = value.trim();
      const pattern = definition.kind === "int" ? /^-?\d+$/ : /^-?(\d+\.?\d*|\.\d+)$/;
      if (!pattern.test(trimmed)) throw invalid("请输入数字");
      const number = Number(trimmed);
      if (definition.minimum !== undefined && number < definition.minimum) {
        throw invalid("配置项 {{key}} 不能小于 {{minimum}}", { key, minimum: definition.minimum });
      }
      value = String(number);
      break;
    }
    case "json": {
      const message = definition.jsonMessage ?? "不是合法的 JSON 字符串";
      let parsed: unknown;
      try {
        parsed = JSON.parse(value);
      } catch {
        throw invalid(message);
      }
      checkJsonShape(definition, parsed, message);
      if (definition.chatTemplates) checkChatTemplates(parsed);
      break;
    }
    case "string":
      value = value.trim();
      if (definition.choices && !definition.choices.includes(value)) {
        throw invalid("配置项 {{key}} 只能是 {{choices}}", { key, choices: definition.choices.join(" / ") });
      }
      if (definition.minLength && value !== "" && value.length < definition.minLength) {
        throw invalid("配置项 {{key}} 至少需要 {{minimum}} 个字符", { key, minimum: definition.minLength });
      }
      if (definition.webLink && value !== "" && !isWebLink(value)) throw invalid("配置项 {{key}} 只能是 http:// 或 https:// 链接", { key });
      break;
    case "text":
      break;
  }
  if (definition.stripTrailingSlash) value = value.replace(/\/+$/, "");
  if (definition.commaList)
    value = [
      ...new Set(
        value
          .split(/[,\s]+/)
          .map((entry) => entry.trim())
          .filter(Boolean),
      ),
    ].join(",");
  return { key, value };
}

/**
 * What PUT /api/option/ checks, for anyone who changes options (the console, the importer): each
 * value normalised, then the rules across keys against `current` (every value before the change)
 * with the changes applied. All or nothing: the first refusal throws.
 */
export function validateOptionChanges(changes: OptionChange[], current: (key: OptionKey) => string): { key: OptionKey; value: string }[] {
  const normalized = changes.map(normalizeOptionChange);
  const pending = new Map(normalized.map((change) => [change.key, change.value]));
  checkEnableRequirements([...pending.keys()], (key) => pending.get(key) ?? current(key));
  return normalized;
}

/**
 * Rules that look at several keys at once: a login method cannot be switched on before its
 * settings exist, payment cannot be set up before the server address. `current` holds every
 * value as it will be after the change.
 */
export function checkEnableRequirements(changed: OptionKey[], current: (key: OptionKey) => string): void {
  for (const key of changed) {
    const definition = definitionOf(key);
    const requirement = definition.kind === "bool" ? definition.enableRequires : definition.setRequires;
    const active = definition.kind === "bool" ? current(key) === "true" : current(key).trim() !== "";
    if (!requirement || !active) continue;
    if (requirement.keys.some((required) => current(required as OptionKey).trim() === "")) {
      throw invalid(requirement.message);
    }
  }
}
