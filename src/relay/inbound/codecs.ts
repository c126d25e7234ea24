// The inbound formats the relay speaks besides OpenAI's own, and the error shape of each
// (OpenAI's error object for the OpenAI endpoints, Responses included).
import type { InboundFormat } from "../providers/adaptor.ts";
import { claudeCodec } from "./claude/claude-codec.ts";
import { geminiCodec } from "./gemini/gemini-codec.ts";
import type { ErrorFacts, InboundCodec } from "./inbound-codec.ts";
import { responsesCodec } from "./responses/responses-codec.ts";

const codecs: Record<Exclude<InboundFormat, "openai">, InboundCodec> = {
  claude: claudeCodec,
  gemini: geminiCodec,
  responses: responsesCodec,
};

export function codecFor(format: InboundFormat): InboundCodec {
  if (format === "openai") throw new Error("the OpenAI format needs no codec");
  return codecs[format];
}

const openAIError = (error: ErrorFacts) => ({
  error: { message: error.message, type: error.type, param: error.param ?? "", code: error.code },
});

/** The error body a client of this format expects. */
export function errorBodyIn(format: InboundFormat, error: ErrorFacts): unknown {
  return format === "openai" ? openAIError(error) : codecs[format].errorBody(error);
}

/** The error event that ends a stream in this format. */
export function streamErrorTextIn(format: InboundFormat, error: ErrorFacts): string {
  return format === "openai" ? `data: ${JSON.stringify(openAIError(error))}\n\n` : codecs[format].streamErrorText(error);
}
