// OpenAI's Responses API passed through (OpenAI and Azure speak it themselves): the client's body
// goes out with only the model replaced, and the answer comes back untouched while its usage is
// read (the response's `usage`; in a stream, the terminal response.completed, .incomplete or
// .failed event) and its output kept for local counting. Responses streams end with that
// terminal event; they have no [DONE].
import type {
  Bytes,
  CompletionCounter,
  ConvertedResponse,
  GeneratedOutput,
  RelayCall,
  SseEvent,
  StreamConverter,
  Usage,
} from "../adaptor.ts";
import { normalizeUsage } from "./openai-usage.ts";

const decoder = new TextDecoder();

/** Marks reasoning the gateway encoded itself for another vendor (inbound/reasoning-state.ts). */
const gatewayReasoning = "U1kx";

/**
 * The client's body with the upstream's model name (its own bytes when nothing changes). Reasoning
 * items the gateway made when another vendor answered an earlier turn are left out: OpenAI cannot
 * read them and would refuse the call.
 */
export function buildResponsesBody(call: RelayCall, model: string): BodyInit {
  const json = call.json;
  if (!json) return call.rawBody;
  const bytes = call.rawBody;
  const foreign = Array.isArray(json.input) && Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes(gatewayReasoning);
  if (json.model === model && !foreign) return call.rawBody;
  const input = foreign
    ? (json.input as Record<string, unknown>[]).filter(
        (item) =>
          !(
            item?.type === "reasoning" &&
            typeof item.encrypted_content === "string" &&
            item.encrypted_content.startsWith(gatewayReasoning)
          ),
      )
    : json.input;
  return JSON.stringify({ ...json, model, ...(input !== undefined ? { input } : {}) });
}

function parse(text: string): Record<string, any> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Text and tool calls of a response's output items. */
function outputOfItems(items: unknown): GeneratedOutput {
  const output: GeneratedOutput = { text: "", toolCalls: 0 };
  for (const item of Array.isArray(items) ? (items as Record<string, any>[]) : []) {
    if (item?.type === "message") {
      for (const part of Array.isArray(item.content) ? item.content : []) output.text += part?.text ?? part?.refusal ?? "";
    } else if (item?.type === "function_call") {
      output.toolCalls++;
      output.text += `${item.name ?? ""}${item.arguments ?? ""}`;
    } else if (item?.type === "reasoning") {
      for (const part of Array.isArray(item.summary) ? item.summary : []) output.text += part?.text ?? "";
    }
  }
  return output;
}

export function convertResponsesAnswer(_call: RelayCall, body: Bytes, contentType: string): ConvertedResponse {
  const parsed = parse(decoder.decode(body));
  const failed = parsed?.status === "failed" && parsed.error?.message;
  return {
    body,
    contentType,
    usage: normalizeUsage(parsed?.usage),
    output: () => outputOfItems(parsed?.output),
    ...(failed
      ? { error: { message: String(parsed.error.message), type: "upstream_error", code: parsed.error.code ?? null, param: null } }
      : {}),
  };
}

const terminal = new Set(["response.completed", "response.incomplete", "response.failed"]);
const deltas = new Set([
  "response.output_text.delta",
  "response.refusal.delta",
  "response.function_call_arguments.delta",
  "response.reasoning_summary_text.delta",
]);

/** The event's type: its `event:` line, else the `type` field of its data. */
function typeOf(event: SseEvent): string {
  if (event.event) return event.event;
  return /"type"\s*:\s*"([^"]+)"/.exec(event.data)?.[1] ?? "";
}

export function createResponsesStreamConverter(_call: RelayCall, _count: CompletionCounter): StreamConverter {
  let usage: Usage | null = null;
  let done = false;
  let last = "";
  /** Delta payloads and added function calls, parsed only if local counting is needed. */
  const kept: string[] = [];

  return {
    push(event) {
      if (done) return [];
      if (event.data === "") return [event.raw];
      const type = typeOf(event);
      last = event.data;
      if (deltas.has(type) || (type === "response.output_item.added" && event.data.includes('"function_call"'))) kept.push(event.data);
      else if (terminal.has(type)) {
        usage = normalizeUsage(parse(event.data)?.response?.usage) ?? usage;
        done = true;
      }
      return [event.raw];
    },
    finish() {
      done = true;
      return [];
    },
    finished: () => done,
    usage: () => usage,
    output() {
      const output: GeneratedOutput = { text: "", toolCalls: 0 };
      for (const data of kept) {
        const event = parse(data);
        if (typeof event?.delta === "string") output.text += event.delta;
        else if (event?.item?.type === "function_call") {
          output.toolCalls++;
          output.text += event.item.name ?? "";
        }
      }
      return output;
    },
    abort(error) {
      const sequence = Number(parse(last)?.sequence_number ?? -1) + 1;
      const data = { type: "error", sequence_number: sequence, code: error.code, message: error.message, param: error.param };
      return [`event: error\ndata: ${JSON.stringify(data)}\n\n`];
    },
  };
}
