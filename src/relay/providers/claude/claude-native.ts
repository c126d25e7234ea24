// Calls made in Claude's own format (/v1/messages) to a kind that speaks it: the body goes
// upstream as the client wrote it, apart from the model (the channel's mapping, a "-thinking"
// suffix turned into `thinking`) and a max_tokens when the client left it out; the answer comes
// back untouched, whole or event by event, with the usage read on the way.
import type { CompletionCounter, GeneratedOutput, RelayCall, SseEvent, StreamConverter } from "../adaptor.ts";
import { splitThinkingSuffix } from "./claude-models.ts";
import { maxTokensFor } from "./claude-request.ts";
import { claudeStreamError } from "./claude-errors.ts";
import { thinkingBudget } from "./claude-thinking.ts";
import { addClaudeUsage, noTokens, usageOfClaude } from "./claude-usage.ts";

/**
 * The fields of a native body that must change, or undefined when the client's bytes can go as
 * they are. `model` is the upstream model (kinds that put it in the URL delete it again).
 */
export function nativeClaudeEdits(call: RelayCall): Record<string, unknown> | undefined {
  const json = call.json ?? {};
  const { model, thinking: suffix } = splitThinkingSuffix(call.upstreamModel);
  const edits: Record<string, unknown> = {};
  if (json.model !== model) edits.model = model;
  if (json.max_tokens === undefined || json.max_tokens === null) edits.max_tokens = maxTokensFor(call);
  if (suffix && json.thinking === undefined) {
    const maxTokens = (edits.max_tokens ?? json.max_tokens) as number;
    const toolChoice = json.tool_choice as Record<string, unknown> | undefined;
    const budget = thinkingBudget({ model, suffix, effort: undefined, maxTokens, toolChoice, lastAssistantUsedTools: false });
    if (budget) edits.thinking = { type: "enabled", budget_tokens: budget };
  }
  return Object.keys(edits).length ? edits : undefined;
}

/** The body of a native call as an object with the edits applied (for kinds that reshape it). */
export function nativeClaudeBody(call: RelayCall): Record<string, unknown> {
  return { ...(call.json ?? {}), ...nativeClaudeEdits(call) };
}

type NativeEvent = {
  type?: string;
  message?: { usage?: unknown };
  usage?: unknown;
  content_block?: { type?: string; name?: string };
  delta?: { text?: string; thinking?: string; partial_json?: string };
};

function parse(data: string): NativeEvent | undefined {
  try {
    return JSON.parse(data) as NativeEvent;
  } catch {
    return undefined;
  }
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
    for (const data of deltas) {
      const delta = parse(data)?.delta;
      text += delta?.text ?? delta?.thinking ?? delta?.partial_json ?? "";
    }
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
        addClaudeUsage(tokens, parse(data)?.message?.usage);
        break;
      case "message_delta": {
        const usage = parse(data)?.usage;
        addClaudeUsage(tokens, usage);
        if ((usage as { output_tokens?: unknown } | undefined)?.output_tokens !== undefined) outputReported = true;
        break;
      }
      case "content_block_start":
        if (data.includes('"tool_use"')) {
          const block = parse(data)?.content_block;
          if (block?.type === "tool_use") {
            toolCalls++;
            toolNames += block.name ?? "";
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
