// one-api numbers its channel types differently from new-api (and so from Switchyard) past the
// first few, and keeps per-type settings in a `config` JSON where new-api uses `other` or the
// key itself. This table says, for each one-api type, which Switchyard type serves it and how
// its settings move; the numbers and default addresses are one-api's published constants.
import type { SourceRow } from "./source-database.ts";
import { textOf } from "./source-values.ts";

type OneApiConfig = {
  region?: string;
  sk?: string;
  ak?: string;
  user_id?: string;
  api_version?: string;
  library_id?: string;
  plugin?: string;
  vertex_ai_project_id?: string;
  vertex_ai_adc?: string;
};

export type ConvertedChannel = { type: number; key: string; baseUrl: string; other: string } | { unsupported: string };

/** OpenAI-compatible services one-api lists as types of their own: Switchyard's OpenAI type with their address. */
const openAICompatible: Record<number, [string, string]> = {
  2: ["API2D", "https://oa.api2d.net"],
  4: ["CloseAI", "https://api.closeai-proxy.xyz"],
  5: ["OpenAI-SB", "https://api.openai-sb.com"],
  6: ["OpenAIMax", "https://api.openaimax.com"],
  7: ["OhMyGPT", "https://api.ohmygpt.com"],
  9: ["AILS", "https://api.caipacity.com"],
  10: ["AIProxy", "https://api.aiproxy.io"],
  12: ["API2GPT", "https://api.api2gpt.com"],
  13: ["AIGC2D", "https://api.aigc2d.com"],
  20: ["OpenRouter", "https://openrouter.ai/api"],
  26: ["Baichuan", "https://api.baichuan-ai.com"],
  29: ["Groq", "https://api.groq.com/openai"],
  32: ["StepFun", "https://api.stepfun.com"],
  39: ["TogetherAI", "https://api.together.xyz"],
  45: ["xAI", "https://api.x.ai"],
  48: ["Xunfei (OpenAI-compatible)", "https://spark-api-open.xf-yun.com"],
  50: ["OpenAI compatible", ""],
};

/** Same service, another number (one-api -> Switchyard/new-api). */
const renumbered: Record<number, number> = {
  1: 1,
  3: 3,
  8: 8,
  11: 11,
  14: 14,
  15: 15,
  16: 16,
  17: 17,
  18: 18,
  19: 19,
  21: 21,
  22: 22,
  23: 23,
  24: 24,
  25: 25,
  27: 35,
  28: 42,
  30: 4,
  31: 31,
  33: 33,
  35: 34,
  36: 43,
  37: 39,
  40: 45,
  42: 41,
  44: 40,
  47: 46,
};

const unsupportedNames: Record<number, string> = {
  34: "Coze",
  38: "DeepL",
  41: "Novita",
  43: "Proxy",
  46: "Replicate",
  49: "AliBailian",
  51: "Gemini (OpenAI-compatible)",
};

function readConfig(row: SourceRow): OneApiConfig {
  try {
    const parsed = JSON.parse(textOf(row, "config") || "{}");
    return parsed && typeof parsed === "object" ? parsed : {};
  } catch {
    return {};
  }
}

export function convertOneApiChannel(row: SourceRow, type: number): ConvertedChannel {
  const config = readConfig(row);
  const key = textOf(row, "key");
  const baseUrl = textOf(row, "base_url");
  const other = textOf(row, "other");
  const compatible = openAICompatible[type];
  if (compatible) return { type: 1, key, baseUrl: baseUrl || compatible[1], other: "" };
  const target = renumbered[type];
  if (target === undefined) return { unsupported: unsupportedNames[type] ?? `type ${type}` };
  switch (type) {
    case 3: // Azure: the API version moved from `other` to config.api_version in v0.6.
      return { type: target, key, baseUrl, other: config.api_version || other };
    case 18: // Xunfei Spark: the interface version.
      return { type: target, key, baseUrl, other: config.api_version || other };
    case 17: // Ali DashScope: the plugin header.
      return { type: target, key, baseUrl, other: config.plugin || other };
    case 21: // AI Proxy knowledge base: the library id.
      return { type: target, key, baseUrl, other: config.library_id || other };
    case 37: // Cloudflare: the account id.
      return { type: target, key, baseUrl, other: config.user_id || other };
    case 33: // AWS Claude: new-api's "Ak|Sk|Region" key.
      return { type: target, key: config.ak && config.sk ? `${config.ak}|${config.sk}|${config.region ?? ""}` : key, baseUrl, other: "" };
    case 42: // Vertex AI: the service account JSON is the key, the region the `other`.
      return { type: target, key: config.vertex_ai_adc || key, baseUrl, other: config.region || other };
    default:
      return { type: target, key, baseUrl, other };
  }
}
