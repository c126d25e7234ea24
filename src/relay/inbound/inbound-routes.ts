// The routes of the vendors' own APIs: Anthropic's /v1/messages (+ count_tokens), OpenAI's
// /v1/responses, and Gemini's /v1beta/models (listing, generateContent, streamGenerateContent,
// countTokens). Generating calls run the one relay pipeline; the others answer here, every
// error in the client's format.
import { Elysia } from "elysia";
import { AppError } from "../../errors/app-error.ts";
import { discardUnreadBody } from "../../http/read-body.ts";
import { relayTranslator } from "../relay-language.ts";
import { countChatPromptTokens } from "../../services/billing/token-counter.ts";
import { endpoints, type EndpointSpec } from "../endpoints.ts";
import { enforceCountTokensLimits } from "../guards/count-tokens-rate-limit.ts";
import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";
import { modelsForCaller } from "../models-list.ts";
import { relayErrorResponse, relayHeaders } from "../pipeline/relay-errors.ts";
import { authorizeModel } from "../pipeline/relay-pipeline.ts";
import type { InboundFormat } from "../providers/adaptor.ts";
import type { RelayCaller } from "../relay-context.ts";
import { newRequestId } from "../request-id.ts";
import { readJsonObjectWithin } from "../request/json-body.ts";
import { readClaudeModel } from "./claude/claude-codec.ts";
import { claudeToChat } from "./claude/claude-to-chat-request.ts";
import { geminiModel, geminiModelList } from "./gemini/gemini-models.ts";
import { geminiToChat } from "./gemini/gemini-to-chat-request.ts";
import { deleteResponse, listInputItems, readResponse } from "./responses/responses-reads.ts";

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

/** Prompt tokens of a chat version, counted as the relay counts every prompt (a local estimate). */
function countChat(chat: Record<string, unknown>, model: string): number {
  return countChatPromptTokens(chat.messages, model, chat.tools);
}

export function inboundRoutes({ relay, authenticate, jsonLimitBytes }: InboundRouteDeps) {
  /** A non-relayed answer: JSON on success, the format's error otherwise. */
  const answer =
    (format: InboundFormat, work: (request: Request, server: unknown) => Promise<unknown>) =>
    async ({ request, server }: { request: Request; server: unknown }) => {
      const requestId = newRequestId();
      try {
        const body = await work(request, server);
        return new Response(JSON.stringify(body), {
          headers: { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId) },
        });
      } catch (error) {
        await discardUnreadBody(request);
        return relayErrorResponse(error, relayTranslator(request), requestId, format);
      }
    };

  // Counting is free (a user with no balance left may count), but limited like any call, before
  // the body is read; the body is read and parsed like a relay body (json-body.ts).
  const claudeCount = answer("claude", async (request, server) => {
    const caller = await authenticate(request, server, "claude");
    await enforceCountTokensLimits(caller.userId);
    const body = await readJsonObjectWithin(request, jsonLimitBytes);
    const model = readClaudeModel(body);
    authorizeModel(caller, model);
    const chat = claudeToChat(body, model, false).chat;
    if (turnIsLong(performance.now())) await waitForShortTurn();
    return { input_tokens: countChat(chat, model) };
  });

  const geminiCount = (model: string) =>
    answer("gemini", async (request, server) => {
      const caller = await authenticate(request, server, "gemini");
      authorizeModel(caller, model);
      await enforceCountTokensLimits(caller.userId);
      const body = await readJsonObjectWithin(request, jsonLimitBytes);
      const inner = body.generateContentRequest;
      if (inner !== undefined && (!inner || typeof inner !== "object" || Array.isArray(inner)))
        throw invalid("字段 {{field}} 无效", { field: "generateContentRequest" });
      const generate = (inner ?? body) as Record<string, unknown>;
      const chat = geminiToChat(generate, model, false).chat;
      if (turnIsLong(performance.now())) await waitForShortTurn();
      return { totalTokens: countChat(chat, model) };
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

  /** GET/DELETE of a kept Responses API response, answered as it comes (kept here, or by its channel). */
  const responsesState =
    (work: (caller: RelayCaller, id: string, query: URLSearchParams, requestId: string) => Promise<Response>) =>
    async ({ request, server, params }: { request: Request; server: unknown; params: Record<string, string> }) => {
      const requestId = newRequestId();
      try {
        const caller = await authenticate(request, server, "responses");
        return await work(caller, decodeURIComponent(params.id ?? ""), new URL(request.url).searchParams, requestId);
      } catch (error) {
        return relayErrorResponse(error, relayTranslator(request), requestId, "responses");
      }
    };

  return new Elysia({ name: "inbound-formats" })
    .post("/v1/messages", ({ request, server }) => relay(endpoints.claudeMessages, request, server), parse)
    .post("/v1/messages/count_tokens", claudeCount, parse)
    .post("/v1/responses", ({ request, server }) => relay(endpoints.responses, request, server), parse)
    .get("/v1/responses/:id", responsesState(readResponse))
    .delete(
      "/v1/responses/:id",
      responsesState((caller, id, _query, requestId) => deleteResponse(caller, id, requestId)),
    )
    .get("/v1/responses/:id/input_items", responsesState(listInputItems))
    .get("/v1beta/models", geminiModels())
    .get("/v1beta/models/*", (context) => geminiModels(decodeURIComponent(context.params["*"]))(context))
    .post("/v1beta/models/*", geminiMethod, parse);
}
