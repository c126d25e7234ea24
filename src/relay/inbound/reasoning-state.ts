// Reasoning state a vendor needs back on the next turn, carried across formats (issue 24).
// Claude wants the thinking blocks of a tool-using turn back with their signatures (and
// redacted_thinking blocks as they came); Gemini wants each step's thought signature back on its
// function call. Inside the relay, converted calls travel as OpenAI chat, which carries them as:
//   - message.extra_content.anthropic.thinking_blocks: Claude's blocks, as Claude sent them;
//   - message.tool_calls[i].extra_content.google.thought_signature: Gemini's signature of a call
//     (Google's own convention for its OpenAI-compatible API);
//   - message.extra_content.google.thought_signature: a signature Gemini put on a text part.
// A client of another format gets the same state as one opaque string in the place its own
// vendor uses (a Responses reasoning item's encrypted_content, a Claude thinking block's
// signature, a Gemini part's thoughtSignature): base64 of "SY1" and the state as JSON, so its
// text always starts with "U1kx" and the gateway knows its own encodings when they come back.

export type ThinkingBlock = { type: "thinking"; thinking: string; signature: string } | { type: "redacted_thinking"; data: string };

export type ReasoningState = {
  anthropic?: { thinking_blocks: ThinkingBlock[] };
  google?: { thought_signature?: string; calls?: Record<string, string> };
};

const magic = "SY1";
/** base64 of the magic: every encoding starts with it. */
const encodedMagic = "U1kx";

export function isGatewayReasoning(text: unknown): text is string {
  return typeof text === "string" && text.startsWith(encodedMagic);
}

export function isEmptyReasoning(state: ReasoningState | undefined): boolean {
  if (!state) return true;
  const blocks = state.anthropic?.thinking_blocks.length ?? 0;
  const google = state.google;
  return blocks === 0 && !google?.thought_signature && Object.keys(google?.calls ?? {}).length === 0;
}

export function encodeReasoning(state: ReasoningState): string {
  return Buffer.from(magic + JSON.stringify(state), "utf8").toString("base64");
}

const isRecord = (value: unknown): value is Record<string, any> => !!value && typeof value === "object" && !Array.isArray(value);

function thinkingBlocksOf(value: unknown): ThinkingBlock[] {
  const blocks: ThinkingBlock[] = [];
  for (const block of Array.isArray(value) ? value : []) {
    if (!isRecord(block)) continue;
    if (block.type === "thinking" && typeof block.signature === "string" && block.signature !== "")
      blocks.push({ type: "thinking", thinking: typeof block.thinking === "string" ? block.thinking : "", signature: block.signature });
    else if (block.type === "redacted_thinking" && typeof block.data === "string")
      blocks.push({ type: "redacted_thinking", data: block.data });
  }
  return blocks;
}

/** Reads the state out of the two known vendor records (extra_content-shaped), dropping what is malformed. */
function stateOf(record: Record<string, any>): ReasoningState | undefined {
  const state: ReasoningState = {};
  const blocks = thinkingBlocksOf(record.anthropic?.thinking_blocks);
  if (blocks.length) state.anthropic = { thinking_blocks: blocks };
  const google = record.google;
  if (isRecord(google)) {
    const calls: Record<string, string> = {};
    for (const [id, signature] of Object.entries(isRecord(google.calls) ? google.calls : {})) {
      if (typeof signature === "string" && signature) calls[id] = signature;
    }
    const text = typeof google.thought_signature === "string" && google.thought_signature ? google.thought_signature : undefined;
    if (text || Object.keys(calls).length)
      state.google = { ...(text ? { thought_signature: text } : {}), ...(Object.keys(calls).length ? { calls } : {}) };
  }
  return isEmptyReasoning(state) ? undefined : state;
}

/** The state of one of the gateway's encodings, or undefined for anything else. */
export function decodeReasoning(text: unknown): ReasoningState | undefined {
  if (!isGatewayReasoning(text)) return undefined;
  try {
    const decoded = Buffer.from(text, "base64").toString("utf8");
    if (!decoded.startsWith(magic)) return undefined;
    const value = JSON.parse(decoded.slice(magic.length));
    return isRecord(value) ? stateOf(value) : undefined;
  } catch {
    return undefined;
  }
}

/** Both states in one (blocks in order; later signatures win). */
export function mergeReasoning(first: ReasoningState | undefined, second: ReasoningState | undefined): ReasoningState | undefined {
  if (isEmptyReasoning(first)) return isEmptyReasoning(second) ? undefined : second;
  if (isEmptyReasoning(second)) return first;
  const blocks = [...(first!.anthropic?.thinking_blocks ?? []), ...(second!.anthropic?.thinking_blocks ?? [])];
  const calls = { ...first!.google?.calls, ...second!.google?.calls };
  const text = second!.google?.thought_signature ?? first!.google?.thought_signature;
  const state: ReasoningState = {};
  if (blocks.length) state.anthropic = { thinking_blocks: blocks };
  if (text || Object.keys(calls).length)
    state.google = { ...(text ? { thought_signature: text } : {}), ...(Object.keys(calls).length ? { calls } : {}) };
  return state;
}

type ChatToolCallLike = { id?: unknown; extra_content?: unknown };

/** The state an OpenAI chat message (or stream delta) carries, whole messages and deltas alike. */
export function reasoningOfChat(message: { extra_content?: unknown; tool_calls?: unknown } | undefined): ReasoningState | undefined {
  if (!message) return undefined;
  let state = isRecord(message.extra_content) ? stateOf(message.extra_content) : undefined;
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as ChatToolCallLike[]) : []) {
    const signature = isRecord(call?.extra_content) ? call.extra_content.google?.thought_signature : undefined;
    if (typeof call?.id === "string" && call.id && typeof signature === "string" && signature) {
      state = mergeReasoning(state, { google: { calls: { [call.id]: signature } } });
    }
  }
  return state;
}

/**
 * Puts the state on a chat assistant message (in place): Claude's blocks and a text signature on
 * the message, each call's signature on its tool call.
 */
export function applyReasoningToChat(message: Record<string, any>, state: ReasoningState | undefined): void {
  if (isEmptyReasoning(state)) return;
  const extra: Record<string, any> = isRecord(message.extra_content) ? { ...message.extra_content } : {};
  if (state!.anthropic?.thinking_blocks.length) {
    extra.anthropic = { thinking_blocks: [...(extra.anthropic?.thinking_blocks ?? []), ...state!.anthropic.thinking_blocks] };
  }
  if (state!.google?.thought_signature) extra.google = { ...extra.google, thought_signature: state!.google.thought_signature };
  if (Object.keys(extra).length) message.extra_content = extra;
  const calls = state!.google?.calls ?? {};
  for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Record<string, any>[]) : []) {
    const signature = typeof call.id === "string" ? calls[call.id] : undefined;
    if (signature) call.extra_content = { ...call.extra_content, google: { ...call.extra_content?.google, thought_signature: signature } };
  }
}
