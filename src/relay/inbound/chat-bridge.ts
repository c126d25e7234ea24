// The way across for a call whose channel does not speak the client's format: the call goes to
// the channel as the OpenAI chat request it converts to, and the attempt's answer (whole, or the
// stream converter) comes back converted to the client's format. Billing reads the channel's own
// usage and output, so a converted call costs exactly what the same chat call would.
import { countCompletionTokens } from "../../services/billing/token-counter.ts";
import type { Bytes, GeneratedOutput, InboundFormat, ProviderAdaptor, RelayCall, Usage } from "../providers/adaptor.ts";
import type { Attempt } from "../pipeline/attempt-types.ts";
import type { ParsedCall } from "../request/read-call.ts";
import { readChatAnswer } from "./chat-answer.ts";
import { codecFor } from "./codecs.ts";
import type { NativeCall } from "./inbound-codec.ts";
import { translateStream } from "./translate-stream.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** True when the channel takes the call in the client's own format. */
export function speaksFormat(adaptor: ProviderAdaptor | undefined, format: InboundFormat): boolean {
  return format === "openai" || adaptor?.nativeFormats?.includes(format) === true;
}

/** The chat bytes of a converted call, encoded once however many channels are tried. */
const chatBytes = new WeakMap<object, Bytes>();

/** The OpenAI chat version of a native call; throws the conversion's refusal (a clear 400). */
export function chatCallFor(
  call: ParsedCall,
  upstreamModel: string,
  countPromptTokens: () => number,
  completionAllowance?: number,
): RelayCall {
  const conversion = call.asChat;
  if (!conversion) throw new Error(`a ${call.format} call without its chat conversion`);
  if (conversion.refusal) throw conversion.refusal;
  let rawBody = chatBytes.get(conversion);
  if (!rawBody) chatBytes.set(conversion, (rawBody = encoder.encode(JSON.stringify(conversion.chat))));
  return {
    endpoint: "chat",
    format: "openai",
    model: call.model,
    upstreamModel,
    stream: call.stream,
    // The client's format reports usage at the end of every stream: ask for it always.
    clientWantsUsage: call.stream,
    json: conversion.chat,
    form: null,
    rawBody,
    contentType: "application/json",
    countPromptTokens,
    completionAllowance,
    ...(conversion.hostedTools?.length ? { hostedTools: conversion.hostedTools } : {}),
    ...(conversion.requiredHostedTool ? { requiredHostedTool: conversion.requiredHostedTool } : {}),
  };
}

function localUsage(countPromptTokens: () => number, output: GeneratedOutput, model: string): Usage {
  const promptTokens = countPromptTokens();
  const completion = countCompletionTokens(output, model);
  return { prompt_tokens: promptTokens, completion_tokens: completion, total_tokens: promptTokens + completion };
}

function parseJson(body: Bytes | string): unknown {
  try {
    return JSON.parse(typeof body === "string" ? body : decoder.decode(body));
  } catch {
    return undefined;
  }
}

/** A successful attempt made in the chat format, answered in the client's format. */
export function bridgeAttempt(call: ParsedCall, countPromptTokens: () => number, attempt: Attempt): Attempt {
  if (!attempt.ok || !call.json) return attempt;
  const codec = codecFor(call.format);
  const native: NativeCall = { model: call.model, request: call.echo ?? call.json, countPromptTokens, toolNames: call.asChat?.toolNames };
  if (attempt.kind === "json") {
    const converted = attempt.converted;
    // The numbers the settlement will bill: the upstream's usage, else the local count.
    const usage = converted.usage ?? localUsage(countPromptTokens, converted.output(), call.model);
    const body = codec.fromChat(readChatAnswer(parseJson(converted.body)), native, usage);
    return { ...attempt, converted: { ...converted, body: JSON.stringify(body), contentType: "application/json" } };
  }
  const inner = attempt.stream.converter;
  const converter = translateStream(inner, codec.streamTranslator(native), () => localUsage(countPromptTokens, inner.output(), call.model));
  return { ...attempt, stream: { ...attempt.stream, converter } };
}
