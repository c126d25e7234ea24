// Calls made in Claude's own format (/v1/messages) to a type that speaks it: the body goes
// upstream as the client wrote it, apart from the model (the channel's mapping, a "-thinking"
// suffix turned into `thinking`) and a max_tokens when the client left it out; the answer comes
// back untouched, whole or event by event, with the usage read on the way.
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter } from "../adaptor.ts";
import { splitThinkingSuffix } from "./claude-models.ts";
import { maxTokensFor } from "./chat-to-claude-request.ts";
import { claudeStreamError } from "./claude-to-chat-errors.ts";
import { thinkingBudget } from "./claude-thinking.ts";
import { addClaudeUsage, noTokens, usageOfClaude } from "./claude-usage.ts";
import { unverified, type Unverified } from "../unverified.ts";
import type {
  ClaudeContentBlock,
  ClaudeDelta,
  ClaudeMessage,
  ClaudeRequest,
  ClaudeStreamEvent,
  ClaudeToolChoice,
  ClaudeUsage,
} from "./claude-wire.ts";

/**
 * The fields of a native body that must change, or undefined when the client's bytes can go as
 * they are. `model` is the upstream model (types that put it in the URL delete it again).
 */
export function nativeClaudeEdits(call: RelayCall): Partial<ClaudeRequest> | undefined {
  const json = call.json ?? {};
  const { model, thinking: suffix } = splitThinkingSuffix(call.upstreamModel);
  const edits: Partial<ClaudeRequest> = {};
  if (json.model !== model) edits.model = model;
  if (json.max_tokens === undefined || json.max_tokens === null) edits.max_tokens = maxTokensFor(call);
  if (suffix && json.thinking === undefined) {
    // The codec checked a client's max_tokens: an integer of 1 or more.
    const maxTokens = edits.max_tokens ?? (typeof json.max_tokens === "number" ? json.max_tokens : maxTokensFor(call));
    const toolChoice = unverified<ClaudeToolChoice>(json.tool_choice);
    const budget = thinkingBudget({ model, suffix, effort: undefined, maxTokens, toolChoice, lastAssistantUsedTools: false });
    if (budget) edits.thinking = { type: "enabled", budget_tokens: budget };
  }
  return Object.keys(edits).length ? edits : undefined;
}

/**
 * The body of a native call as an object with the edits applied (for types that reshape it). The
 * client's fields are forwarded as sent (checked by the codec, the rest Anthropic's to judge).
 */
export function nativeClaudeBody(call: RelayCall): Record<string, unknown> {
  return { ...(call.json ?? {}), ...nativeClaudeEdits(call) };
}

function parse(data: string): Unverified<ClaudeStreamEvent> | undefined {
  try {
    return unverified<ClaudeStreamEvent>(JSON.parse(data));
  } catch {
    return undefined;
  }
}

/** The generated text a delta carries (text, thinking or tool input), "" for the others. */
function deltaText(value: unknown): string {
  const delta = unverified<ClaudeDelta>(value);
  const text = delta?.text ?? delta?.thinking ?? delta?.partial_json;
  return typeof text === "string" ? text : "";
}

/**
 * Passes a Claude event stream through to a Claude client, reading usage on the way. Deltas are
 * only kept as text: they are parsed for local counting when the upstream reported no usage.
 */
export function createClaudeNativeStreamConverter(_call: RelayCall, countCompletion: CompletionCounter): StreamConverter {
  const tokens = noTokens();
  const deltas: string[] = [];
  let toolCalls = 0;
  let toolNames = "";
  let outputReported = false;
  let done = false;

  const output = (): GeneratedOutput => {
    let text = toolNames;
    for (const data of deltas) text += deltaText(parse(data)?.delta);
    return { text, toolCalls };
  };

  const read = (name: string, data: string) => {
    // Anthropic names every event; a framing without names (none known) is read by its type.
    const type = name || parse(data)?.type;
    switch (type) {
      case "content_block_delta":
        deltas.push(data);
        break;
      case "message_start":
        addClaudeUsage(tokens, unverified<ClaudeMessage>(parse(data)?.message)?.usage);
        break;
      case "message_delta": {
        const usage = unverified<ClaudeUsage>(parse(data)?.usage);
        addClaudeUsage(tokens, usage);
        if (usage?.output_tokens !== undefined) outputReported = true;
        break;
      }
      case "content_block_start":
        if (data.includes('"tool_use"')) {
          const block = unverified<ClaudeContentBlock>(parse(data)?.content_block);
          if (block?.type === "tool_use") {
            toolCalls++;
            toolNames += typeof block.name === "string" ? block.name : "";
          }
        }
        break;
      case "message_stop":
        done = true;
        break;
    }
  };

  return {
    push(event: SseEvent): string[] {
      if (done) return [];
      if (event.data !== "") {
        if (claudeStreamError(event)) done = true;
        else read(event.event, event.data);
      }
      return [event.raw];
    },
    finish() {
      done = true;
      return [];
    },
    finished: () => done,
    usage() {
      const reported = usageOfClaude(tokens);
      if (!reported || outputReported) return reported;
      // Cut before message_delta: bill what was delivered, counted here.
      const completion = countCompletion(output());
      return { ...reported, completion_tokens: completion, total_tokens: reported.prompt_tokens + completion };
    },
    output,
  };
}
