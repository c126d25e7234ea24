// The OpenAI chat fields of the last two years through every type's request builder: each is
// mapped to the vendor's own field (the check finds it in the upstream body), passed on to a
// vendor that reads OpenAI's fields itself, or refused with a 400 that names it; never dropped.
// The vendors' fields, by type: Claude's Messages API (max_tokens, thinking, tool_choice's
// disable_parallel_tool_use), Gemini's generationConfig (maxOutputTokens, thinkingConfig,
// responseSchema), Cohere v2 chat, ERNIE's max_output_tokens, DashScope's parameters
// (max_tokens, enable_thinking, response_format, parallel_tool_calls), Spark's parameter.chat,
// GLM v4's max_tokens and thinking, Mistral's chat reference, Hunyuan's ChatCompletions fields
// (tencentcloud-sdk-nodejs-hunyuan: no output limit, EnableThinking).
import { describe, expect, test } from "bun:test";
import { AppError } from "../../errors/app-error.ts";
import type { ProviderAdaptor, RelayCall, UpstreamTarget } from "./adaptor.ts";
import { testCall } from "../../../tests/helpers/test-call.ts";
import { allAdaptors } from "./registry.ts";
import { ChannelType } from "../../services/channels/channel-types.ts";

type Json = Record<string, any>;
type Outcome = Json | AppError;

const serviceAccount = JSON.stringify({ client_email: "a@p.iam.gserviceaccount.com", private_key: "k", project_id: "p" });

/** What each type needs to build a chat request: its key, other field and a chat model. */
const setups: Record<number, { key?: string; other?: string; model?: string; credential?: string }> = {
  [ChannelType.Baidu]: { key: "ak|sk", credential: "access-token", model: "ERNIE-4.0-8K" },
  [ChannelType.DashScope]: { model: "qwen-plus" },
  [ChannelType.Spark]: { key: "app|secret|key", model: "SparkDesk-v3.5" },
  [ChannelType.Zhipu]: { key: "id.secret", model: "chatglm_turbo" },
  [ChannelType.ZhipuV4]: { key: "id.secret", model: "glm-4-plus" },
  [ChannelType.Claude]: { model: "claude-sonnet-4-20250514" },
  [ChannelType.Bedrock]: { key: "AKIA|secret|us-east-1", model: "claude-sonnet-4-20250514" },
  [ChannelType.Hunyuan]: { key: "1250000000|AKID|secret", model: "hunyuan-lite" },
  [ChannelType.FastGPT]: { key: "fastgpt-key-0123456789abcdef01234567" },
  [ChannelType.AIProxyLibrary]: { other: "1" },
  [ChannelType.Cloudflare]: { other: "account" },
  [ChannelType.Gemini]: { model: "gemini-2.5-flash" },
  [ChannelType.PaLM]: { model: "chat-bison-001" },
  [ChannelType.Vertex]: { key: serviceAccount, credential: "ya29.token", model: "gemini-2.5-flash" },
};
/** Kinds that serve no chat at all (embeddings and rerank vendors). */
const noChat = new Set<number>([ChannelType.Jina, ChannelType.MokaAI]);

const tools = [{ type: "function", function: { name: "weather", parameters: { type: "object", properties: {} } } }];
const base = { messages: [{ role: "user", content: "hi" }] };
const cases: Record<string, Json> = {
  max_completion_tokens: { max_completion_tokens: 321 },
  reasoning_effort: { reasoning_effort: "high", max_completion_tokens: 4000 },
  json_schema: {
    response_format: { type: "json_schema", json_schema: { name: "a", schema: { type: "object", properties: { a: { type: "string" } } } } },
  },
  parallel_tool_calls: { tools, parallel_tool_calls: false },
  service_tier: { service_tier: "flex" },
  modalities: { modalities: ["text", "audio"] },
};

async function build(adaptor: ProviderAdaptor, extra: Json): Promise<Outcome> {
  const setup = setups[adaptor.type] ?? {};
  const target: UpstreamTarget = {
    id: 1,
    type: adaptor.type,
    key: setup.key ?? "sk-key",
    baseUrl: "https://vendor.example",
    other: setup.other ?? "",
    organization: "",
    setting: {},
    ...(setup.credential ? { credential: setup.credential } : {}),
  };
  const call: RelayCall = testCall({ model: setup.model ?? "gpt-4o", ...base, ...extra });
  try {
    const request = await adaptor.buildRequest(call, target);
    const text = typeof request.body === "string" ? request.body : new TextDecoder().decode(request.body as Uint8Array);
    return JSON.parse(text);
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const refused = (field: string) => (outcome: Outcome) => {
  expect(outcome).toBeInstanceOf(AppError);
  const error = outcome as AppError;
  expect([error.kind, error.httpStatus ?? 400]).toEqual(["invalid", 400]);
  // The message names the field (the generic refusal), or says what the type lacks.
  if (error.code === "unsupported_field") expect(String(error.params?.field)).toContain(field);
};
const body = (check: (json: Json) => void) => (outcome: Outcome) => {
  expect(outcome).not.toBeInstanceOf(AppError);
  check(outcome as Json);
};
/** The field reaches the vendor as the client sent it (the vendor reads OpenAI's fields itself). */
const passed = (field: string, value: unknown) => body((json) => expect(json[field]).toEqual(value));

type Row = Record<keyof typeof cases, (outcome: Outcome) => void>;

/** OpenAI-compatible vendors that read the client's fields themselves; those documenting max_tokens only get it renamed. */
function passThrough(maxTokensOnly: boolean): Row {
  return {
    max_completion_tokens: body((json) =>
      maxTokensOnly
        ? expect([json.max_tokens, json.max_completion_tokens]).toEqual([321, undefined])
        : expect(json.max_completion_tokens).toBe(321),
    ),
    reasoning_effort: passed("reasoning_effort", "high"),
    json_schema: passed("response_format", cases.json_schema!.response_format),
    parallel_tool_calls: passed("parallel_tool_calls", false),
    service_tier: passed("service_tier", "flex"),
    modalities: passed("modalities", ["text", "audio"]),
  };
}
const allRefused: Row = {
  max_completion_tokens: refused("max_completion_tokens"),
  reasoning_effort: refused("max_completion_tokens"),
  json_schema: refused("response_format.json_schema"),
  parallel_tool_calls: refused("parallel_tool_calls"),
  service_tier: refused("service_tier"),
  modalities: refused("modalities"),
};
const claude: Row = {
  max_completion_tokens: body((json) => expect(json.max_tokens).toBe(321)),
  reasoning_effort: body((json) => expect(json.thinking).toMatchObject({ type: "enabled" })),
  json_schema: refused("response_format.json_schema"),
  parallel_tool_calls: body((json) => expect(json.tool_choice).toMatchObject({ disable_parallel_tool_use: true })),
  service_tier: refused("service_tier"),
  modalities: refused("modalities"),
};
const gemini: Row = {
  max_completion_tokens: body((json) => expect(json.generationConfig.maxOutputTokens).toBe(321)),
  reasoning_effort: body((json) => expect(json.generationConfig.thinkingConfig).toBeDefined()),
  json_schema: body((json) =>
    expect(json.generationConfig).toMatchObject({ responseMimeType: "application/json", responseSchema: { type: "object" } }),
  ),
  parallel_tool_calls: refused("parallel_tool_calls"),
  service_tier: refused("service_tier"),
  modalities: refused("modalities"),
};

const table: Record<number, Row> = {
  [ChannelType.OpenAI]: passThrough(false),
  [ChannelType.Azure]: passThrough(false),
  [ChannelType.Custom]: passThrough(false),
  [ChannelType.Moonshot]: passThrough(false),
  [ChannelType.Volcengine]: passThrough(false),
  [ChannelType.BaiduV2]: passThrough(false),
  [ChannelType.MiniMax]: passThrough(false),
  [ChannelType.FastGPT]: passThrough(false),
  [ChannelType.Ollama]: passThrough(true),
  [ChannelType.DeepSeek]: passThrough(true),
  [ChannelType.SiliconCloud]: passThrough(true),
  [ChannelType.ZeroOne]: passThrough(true),
  [ChannelType.AI360]: passThrough(true),
  [ChannelType.Cloudflare]: passThrough(true),
  [ChannelType.Mistral]: {
    max_completion_tokens: body((json) => expect([json.max_tokens, json.max_completion_tokens]).toEqual([321, undefined])),
    reasoning_effort: refused("reasoning_effort"),
    json_schema: passed("response_format", cases.json_schema!.response_format),
    parallel_tool_calls: passed("parallel_tool_calls", false),
    service_tier: refused("service_tier"),
    modalities: refused("modalities"),
  },
  [ChannelType.ZhipuV4]: {
    max_completion_tokens: body((json) => expect([json.max_tokens, json.max_completion_tokens]).toEqual([321, undefined])),
    reasoning_effort: body((json) => expect([json.thinking, json.reasoning_effort]).toEqual([{ type: "enabled" }, undefined])),
    json_schema: refused("response_format.json_schema"),
    parallel_tool_calls: refused("parallel_tool_calls"),
    service_tier: refused("service_tier"),
    modalities: refused("modalities"),
  },
  [ChannelType.Claude]: claude,
  [ChannelType.Bedrock]: claude,
  [ChannelType.Gemini]: gemini,
  [ChannelType.Vertex]: gemini,
  [ChannelType.PaLM]: allRefused,
  [ChannelType.Cohere]: {
    max_completion_tokens: body((json) => expect(json.max_tokens).toBe(321)),
    reasoning_effort: refused("reasoning_effort"),
    json_schema: body((json) => expect(json.response_format).toMatchObject({ type: "json_object", json_schema: { type: "object" } })),
    parallel_tool_calls: refused("parallel_tool_calls"),
    service_tier: refused("service_tier"),
    modalities: refused("modalities"),
  },
  [ChannelType.Baidu]: {
    max_completion_tokens: body((json) => expect(json.max_output_tokens).toBe(321)),
    reasoning_effort: refused("reasoning_effort"),
    json_schema: refused("response_format.json_schema"),
    // ERNIE's answer calls one function at most: the client's wish holds as it is.
    parallel_tool_calls: body((json) => expect(json.functions).toHaveLength(1)),
    service_tier: refused("service_tier"),
    modalities: refused("modalities"),
  },
  [ChannelType.DashScope]: {
    max_completion_tokens: body((json) => expect(json.parameters.max_tokens).toBe(321)),
    reasoning_effort: body((json) => expect(json.parameters.enable_thinking).toBe(true)),
    json_schema: body((json) => expect(json.parameters.response_format).toEqual(cases.json_schema!.response_format)),
    parallel_tool_calls: body((json) => expect(json.parameters.parallel_tool_calls).toBe(false)),
    service_tier: refused("service_tier"),
    modalities: refused("modalities"),
  },
  [ChannelType.Spark]: {
    max_completion_tokens: body((json) => expect(json.parameter.chat.max_tokens).toBe(321)),
    reasoning_effort: refused("reasoning_effort"),
    json_schema: refused("response_format.json_schema"),
    // Spark answers with one function call at most.
    parallel_tool_calls: body((json) => expect(json.payload.functions.text).toHaveLength(1)),
    service_tier: refused("service_tier"),
    modalities: refused("modalities"),
  },
  [ChannelType.Hunyuan]: {
    ...allRefused,
    reasoning_effort: refused("max_completion_tokens"),
  },
  [ChannelType.Zhipu]: allRefused,
  [ChannelType.Dify]: allRefused,
  [ChannelType.AIProxyLibrary]: allRefused,
};

describe("the newer OpenAI chat fields through every type's request builder", async () => {
  const adaptors = await allAdaptors();

  test("every type has a row (a new type must say what it does with them)", () => {
    const missing = adaptors.filter((adaptor) => !table[adaptor.type] && !noChat.has(adaptor.type)).map((adaptor) => adaptor.type);
    expect(missing).toEqual([]);
  });

  for (const field of Object.keys(cases)) {
    test(`${field}: mapped, passed on, or refused with 400 by every type`, async () => {
      for (const adaptor of adaptors) {
        if (noChat.has(adaptor.type)) continue;
        const outcome = await build(adaptor, cases[field]!);
        try {
          table[adaptor.type]![field]!(outcome);
        } catch (error) {
          throw new Error(`type ${adaptor.type} (${adaptor.name}), ${field}: ${error instanceof Error ? error.message : error}`);
        }
      }
    });
  }

  test("Hunyuan maps reasoning_effort to EnableThinking once no output limit is asked", async () => {
    const hunyuan = adaptors.find((adaptor) => adaptor.type === ChannelType.Hunyuan)!;
    expect(((await build(hunyuan, { reasoning_effort: "none" })) as Json).EnableThinking).toBe(false);
    expect(((await build(hunyuan, { reasoning_effort: "low" })) as Json).EnableThinking).toBe(true);
  });

  test("stream_options is the relay's own (its usage chunk): no type refuses it", async () => {
    for (const adaptor of adaptors) {
      if (noChat.has(adaptor.type)) continue;
      const outcome = await build(adaptor, { stream: true, stream_options: { include_usage: true } });
      expect([adaptor.type, outcome instanceof AppError]).toEqual([adaptor.type, false]);
    }
  });

  test("Gemini's modalities: text and image become responseModalities", async () => {
    const gemini = adaptors.find((adaptor) => adaptor.type === ChannelType.Gemini)!;
    const json = (await build(gemini, { modalities: ["text", "image"] })) as Json;
    expect(json.generationConfig.responseModalities).toEqual(["TEXT", "IMAGE"]);
  });
});
