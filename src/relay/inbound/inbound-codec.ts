// An inbound format: a vendor's own API spoken to our clients (Claude /v1/messages, Gemini
// /v1beta, OpenAI /v1/responses). The pipeline stays one story for every format; a codec says
// how the format's requests are read and authenticated, how a request becomes an OpenAI chat
// request for channels that do not speak the format, how OpenAI chat answers (whole, and the
// chunks of a stream) come back in the format, and how errors look in it.
import type { AppError } from "../../errors/app-error.ts";
import type { HostedTool, InboundFormat, StreamBreak, Usage } from "../providers/adaptor.ts";
import type { ChatAnswer, ChatChunk } from "./chat-answer.ts";
import type { ChatRequest } from "../providers/openai-chat-wire.ts";

/** What a format reads from its request, besides the JSON body it keeps. */
export type NativeRead = {
  model: string;
  /** The body asks for a stream (Gemini says it in the path instead). */
  stream: boolean;
  /** The completion allowance the client set (max_tokens and its kin), for the hold. */
  maxTokens: number | undefined;
};

/**
 * A native request as an OpenAI chat body (the model still the client's). `refusal` says why a
 * channel that does not speak the format cannot serve it (state kept by the upstream, a tool
 * only the vendor runs); the chat body is still good for counting and checking the prompt.
 */
export type ChatConversion = {
  chat: ChatRequest;
  refusal?: AppError;
  /** Tools the client wants the vendor to run (web search), for the types that have their own. */
  hostedTools?: HostedTool[];
  /** The hosted tool the client's tool_choice names: refused where no channel runs it. */
  requiredHostedTool?: HostedTool["type"];
  /** Tools no channel runs for a converted call, left out of it (named in the log). */
  leftOut?: string[];
  /** What the chat tool names stand for, where they differ from a plain function (answers map back). */
  toolNames?: ReadonlyMap<string, ToolName>;
};

/** A client tool behind a chat function name: a namespaced function, a freeform tool, a tool search. */
export type ToolName = { kind: "function" | "custom" | "tool_search"; name: string; namespace?: string };

/** The request facts a conversion of answers needs. */
export type NativeCall = {
  model: string;
  /** The client's native body. */
  request: Record<string, unknown>;
  /** Prompt tokens counted locally (what a stream announces before the upstream says); counts on call. */
  countPromptTokens: () => number;
  /** The conversion's tool names (ChatConversion.toolNames). */
  toolNames?: ReadonlyMap<string, ToolName>;
};

/** Turns the OpenAI chunks of one stream into the format's events; its state lives inside. */
export interface ChunkTranslator {
  chunk(chunk: ChatChunk): string[];
  /** The stream ended normally, with this usage: the closing events. */
  end(usage: Usage): string[];
  /** The stream broke: the events that end it with this error. */
  fail(error: StreamBreak): string[];
}

/** An error as every face knows it: status plus the OpenAI error object's fields. */
export type ErrorFacts = StreamBreak;

export interface InboundCodec {
  readonly format: InboundFormat;
  /** The relay key the format carries outside the Authorization header; undefined: read that header. */
  keyText(request: Request): string | undefined;
  /** Headers of the call the types speaking the format forward (RelayCall.vendorHeaders). */
  vendorHeaders?(headers: Headers): Record<string, string> | undefined;
  /** Checks the body and reads what the pipeline needs; throws AppError("invalid") when malformed. */
  read(body: Record<string, unknown>, pathModel: string | undefined): NativeRead;
  toChat(body: Record<string, unknown>, model: string, stream: boolean): ChatConversion;
  /** A whole OpenAI chat answer in the format (the object to send as JSON). */
  fromChat(answer: ChatAnswer, call: NativeCall, usage: Usage): unknown;
  streamTranslator(call: NativeCall): ChunkTranslator;
  /** The format's error body. */
  errorBody(error: ErrorFacts): unknown;
  /** The format's error event for a stream that had begun. */
  streamErrorText(error: ErrorFacts): string;
}

/** One server-sent event with a name, as Anthropic and OpenAI's Responses API frame theirs. */
export function namedEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function dataEvent(data: unknown): string {
  return `data: ${JSON.stringify(data)}\n\n`;
}

/** A short random id with the vendor's prefix (msg_, resp_, fc_ ...). */
export function nativeId(prefix: string): string {
  return `${prefix}${crypto.randomUUID().replaceAll("-", "")}`;
}
