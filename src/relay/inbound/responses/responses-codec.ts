// OpenAI's Responses API (POST /v1/responses) as an inbound format: Bearer keys and OpenAI's
// error object, as on every OpenAI endpoint; max_output_tokens bounds the hold.
import { AppError } from "../../../errors/app-error.ts";
import { namedEvent, type ErrorFacts, type InboundCodec } from "../inbound-codec.ts";
import { responsesToChat } from "./responses-request.ts";
import { responseObject } from "./responses-response.ts";
import { responsesStreamTranslator } from "./responses-stream.ts";

const invalid = (key: string, params?: Record<string, string>) => new AppError("invalid", key, params, { code: "invalid_request" });

const openAIError = (error: ErrorFacts) => ({ message: error.message, type: error.type, param: error.param ?? null, code: error.code });

export const responsesCodec: InboundCodec = {
  format: "responses",
  keyText: () => undefined,
  read(body) {
    if (typeof body.model !== "string" || body.model.trim() === "") throw invalid("缺少必填字段 {{field}}", { field: "model" });
    const stateful = body.previous_response_id || body.conversation || body.prompt;
    if (!stateful && typeof body.input !== "string" && !Array.isArray(body.input))
      throw invalid("缺少必填字段 {{field}}", { field: "input" });
    const max = body.max_output_tokens;
    if (max !== undefined && max !== null && (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > 2 ** 30)) {
      throw invalid("字段 {{field}} 无效", { field: "max_output_tokens" });
    }
    return { model: body.model.trim(), stream: body.stream === true, maxTokens: typeof max === "number" ? max : undefined };
  },
  toChat: responsesToChat,
  fromChat: responseObject,
  streamTranslator: responsesStreamTranslator,
  errorBody: (error) => ({ error: openAIError(error) }),
  // Only for a stream whose converter has no abort of its own (the sequence is then unknown).
  streamErrorText: (error) =>
    namedEvent("error", { type: "error", sequence_number: 0, code: error.code, message: error.message, param: error.param }),
};
