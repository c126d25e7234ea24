// The chat completion request the playground sends, built in one place so that "view code" shows
// exactly what a send would post: the system prompt, the finished history (pictures as image_url
// parts with data: URLs), the switched-on parameters, and stream usage when streaming.
import { stopSequences, type Message, type Parameters } from "./conversation.ts";

type ContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };
export type WireMessage = { role: "system" | "user" | "assistant"; content: string | ContentPart[] };

export type ChatBodyInput = {
  model: string;
  system: string;
  /** The conversation up to the answer wanted (its last message is the user's). */
  history: Message[];
  parameters: Parameters;
  /** Only for /pg: the console user's chosen group (a token has its own). */
  group?: string;
};

function toWire(message: Message): WireMessage {
  if (message.role === "user" && message.images && message.images.length > 0) {
    const parts: ContentPart[] = [];
    if (message.content) parts.push({ type: "text", text: message.content });
    for (const url of message.images) parts.push({ type: "image_url", image_url: { url } });
    return { role: "user", content: parts };
  }
  return { role: message.role, content: message.content };
}

/** Messages worth sending: the user's, and answers that completed (a failed one is not context). */
export function contextOf(history: Message[]): Message[] {
  return history.filter((message) => message.role === "user" || (message.state === "complete" && message.content.length > 0));
}

export function chatBody(input: ChatBodyInput): Record<string, unknown> {
  const { parameters } = input;
  const messages: WireMessage[] = [];
  if (input.system.trim()) messages.push({ role: "system", content: input.system });
  for (const message of contextOf(input.history)) messages.push(toWire(message));
  const body: Record<string, unknown> = { model: input.model, messages, stream: parameters.stream };
  if (input.group !== undefined) body.group = input.group;
  if (parameters.stream) body.stream_options = { include_usage: true };
  body.temperature = parameters.temperature;
  if (parameters.topPEnabled) body.top_p = parameters.topP;
  if (parameters.maxTokens > 0) body.max_tokens = parameters.maxTokens;
  const stop = stopSequences(parameters.stop);
  if (stop.length > 0) body.stop = stop;
  if (parameters.presenceEnabled) body.presence_penalty = parameters.presencePenalty;
  if (parameters.frequencyEnabled) body.frequency_penalty = parameters.frequencyPenalty;
  if (parameters.reasoningEffort) body.reasoning_effort = parameters.reasoningEffort;
  return body;
}
