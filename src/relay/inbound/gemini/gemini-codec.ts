// Gemini's generateContent / streamGenerateContent (POST /v1beta/models/{model}:…) as an inbound
// format. The model comes from the path; the key from x-goog-api-key or the `key` query
// parameter (Google's two ways), else a Bearer token; maxOutputTokens bounds the hold.
import { AppError } from "../../../errors/app-error.ts";
import { dataEvent, type InboundCodec } from "../inbound-codec.ts";
import { geminiErrorBody } from "./errors-to-gemini.ts";
import { field } from "./gemini-fields.ts";
import type { GeminiGenerationConfig, GeminiRequest } from "../../providers/gemini/gemini-wire.ts";
import { geminiToChat } from "./gemini-to-chat-request.ts";
import { geminiResponse } from "./chat-to-gemini-response.ts";
import { geminiStreamTranslator } from "./chat-to-gemini-stream.ts";

const invalid = (key: string, params?: Record<string, string>) => new AppError("invalid", key, params, { code: "invalid_request" });

export const geminiCodec: InboundCodec = {
  format: "gemini",
  keyText(request) {
    const header = request.headers.get("x-goog-api-key");
    if (header) return header;
    const query = request.url.indexOf("?");
    return query < 0 ? undefined : (new URLSearchParams(request.url.slice(query + 1)).get("key") ?? undefined);
  },
  read(body, pathModel) {
    if (!pathModel) throw invalid("缺少必填字段 {{field}}", { field: "model" });
    if (!Array.isArray(body.contents) || body.contents.length === 0) throw invalid("缺少必填字段 {{field}}", { field: "contents" });
    const max = field<GeminiGenerationConfig>(field<GeminiRequest>(body, "generationConfig"), "maxOutputTokens");
    if (max !== undefined && max !== null && (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > 2 ** 30)) {
      throw invalid("字段 {{field}} 无效", { field: "maxOutputTokens" });
    }
    return { model: pathModel, stream: false, maxTokens: typeof max === "number" ? max : undefined };
  },
  toChat: geminiToChat,
  fromChat: geminiResponse,
  streamTranslator: geminiStreamTranslator,
  errorBody: geminiErrorBody,
  streamErrorText: (error) => dataEvent(geminiErrorBody(error)),
};
