// The routes of the vendors' own APIs: Anthropic's /v1/messages (+ count_tokens), OpenAI's
// /v1/responses, and Gemini's /v1beta/models (listing, generateContent, streamGenerateContent,
// countTokens). Generating calls run the one relay pipeline; the others answer here, every
// error in the client's format.
import { Elysia } from "elysia";
import { AppError } from "../../errors/app-error.ts";
import { discardUnreadBody, readBodyWithin } from "../../http/read-body.ts";
import { requestTranslator } from "../../http/request-language.ts";
import { countChatPromptTokens } from "../../services/billing/token-counter.ts";
import { endpoints, type EndpointSpec } from "../endpoints.ts";
import { modelsForCaller } from "../models-list.ts";
import { relayErrorResponse, relayHeaders } from "../pipeline/relay-errors.ts";
import { authorizeModel } from "../pipeline/relay-pipeline.ts";
import type { InboundFormat } from "../providers/adaptor.ts";
import type { RelayCaller } from "../relay-context.ts";
import { newRequestId } from "../request-id.ts";
import { jsonDepthWithin, maxJsonDepth } from "../request/json-depth.ts";
import { readClaudeModel } from "./claude/claude-codec.ts";
import { claudeToChat } from "./claude/claude-request.ts";
import { geminiModel, geminiModelList } from "./gemini/gemini-models.ts";
import { geminiToChat } from "./gemini/gemini-request.ts";

export type InboundRouteDeps = {
  /** Runs a call through the relay pipeline. */
  relay: (endpoint: EndpointSpec, request: Request, server: unknown, pathModel?: string) => Promise<Response>;
  /** Authenticates the caller by the key as the format carries it. */
  authenticate: (request: Request, server: unknown, format: InboundFormat) => Promise<RelayCaller>;
  /** The largest JSON body a relay endpoint reads. */
  jsonLimitBytes: number;
};

const parse = { parse: "none" as const };
const invalid = (key: string, params?: Record<string, string>) => new AppError("invalid", key, params, { code: "invalid_request" });

/** The JSON body, read within the relay's limits (size, nesting) like every relay body. */
async function readBody(request: Request, limitBytes: number): Promise<Record<string, unknown>> {
  const bytes = await readBodyWithin(request, limitBytes);
  if (!jsonDepthWithin(bytes)) throw invalid("请求体嵌套超过 {{depth}} 层", { depth: String(maxJsonDepth) });
  try {
    const body = JSON.parse(new TextDecoder().decode(bytes));
    if (body && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw invalid("请求体不是合法的 JSON");
}

/** Prompt tokens of a chat version, counted as the relay counts every prompt (a local estimate). */
function countChat(chat: Record<string, unknown>, model: string): number {
  return countChatPromptTokens(chat.messages, model, chat.tools);
}

export function inboundRoutes({ relay, authenticate, jsonLimitBytes }: InboundRouteDeps) {
  /** A non-relayed answer: JSON on success, the format's error otherwise. */
  const answer = (format: InboundFormat, work: (request: Request, server: unknown) => Promise<unknown>) =>
    async ({ request, server }: { request: Request; server: unknown }) => {
      const requestId = newRequestId();
      try {
        const body = await work(request, server);
        return new Response(JSON.stringify(body), { headers: { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId) } });
      } catch (error) {
        await discardUnreadBody(request);
        return relayErrorResponse(error, requestTranslator(request), requestId, format);
      }
    };

  const claudeCount = answer("claude", async (request, server) => {
    const caller = await authenticate(request, server, "claude");
    const body = await readBody(request, jsonLimitBytes);
    const model = readClaudeModel(body);
    authorizeModel(caller, model);
    return { input_tokens: countChat(claudeToChat(body, model, false).chat, model) };
  });

  const geminiCount = (model: string) =>
    answer("gemini", async (request, server) => {
      const caller = await authenticate(request, server, "gemini");
      authorizeModel(caller, model);
      const body = await readBody(request, jsonLimitBytes);
      const generate = (body.generateContentRequest ?? body) as Record<string, unknown>;
      return { totalTokens: countChat(geminiToChat(generate, model, false).chat, model) };
    });

  const geminiModels = (one?: string) =>
    answer("gemini", async (request, server) => {
      const models = await modelsForCaller(await authenticate(request, server, "gemini"));
      if (one === undefined) return geminiModelList(models);
      if (!models.includes(one)) throw new AppError("not_found", "模型 {{model}} 不存在", { model: one });
      return geminiModel(one);
    });

  /** POST /v1beta/models/{model}:{method} */
  const geminiMethod = ({ request, server, params }: { request: Request; server: unknown; params: Record<string, string> }) => {
    const target = decodeURIComponent(params["*"] ?? "");
    const colon = target.lastIndexOf(":");
    const model = colon < 0 ? target : target.slice(0, colon);
    const method = colon < 0 ? "" : target.slice(colon + 1);
    switch (method) {
      case "generateContent":
        return relay(endpoints.geminiGenerate, request, server, model);
      case "streamGenerateContent":
        if (new URL(request.url).searchParams.get("alt") !== "sse") {
          return answer("gemini", async () => {
            throw invalid("streamGenerateContent 需要 alt=sse");
          })({ request, server });
        }
        return relay(endpoints.geminiStream, request, server, model);
      case "countTokens":
        return geminiCount(model)({ request, server });
      default:
        return answer("gemini", async () => {
          throw new AppError("not_found", "不支持的 Gemini 方法：{{method}}", { method: method || target });
        })({ request, server });
    }
  };

  return new Elysia({ name: "inbound-formats" })
    .post("/v1/messages", ({ request, server }) => relay(endpoints.claudeMessages, request, server), parse)
    .post("/v1/messages/count_tokens", claudeCount, parse)
    .post("/v1/responses", ({ request, server }) => relay(endpoints.responses, request, server), parse)
    .get("/v1beta/models", geminiModels())
    .get("/v1beta/models/*", (context) => geminiModels(decodeURIComponent(context.params["*"]))(context))
    .post("/v1beta/models/*", geminiMethod, parse);
}
