// Facts about Claude models that the conversion needs, shared by every type that serves Claude
// (Anthropic, Bedrock, Vertex): the output limit sent when the client sets none, which models
// can think, and the "-thinking" model suffix that turns thinking on.
//
// max_tokens is required by the Messages API. The default is deliberately modest (not each
// model's ceiling): the relay's hold covers it, so a large default would reserve a large part
// of a small balance for every call that names no limit.

const thinkingSuffix = "-thinking";

/** The Claude model name inside an upstream id ("anthropic.claude-3-5-haiku-20241022-v1:0"). */
function claudeName(model: string): string {
  return /claude-[a-z0-9.-]+/i.exec(model)?.[0]?.toLowerCase() ?? model.toLowerCase();
}

/** "claude-3-7-sonnet-20250219-thinking" is claude-3-7-sonnet-20250219 with thinking on. */
export function splitThinkingSuffix(model: string): { model: string; thinking: boolean } {
  return model.endsWith(thinkingSuffix) ? { model: model.slice(0, -thinkingSuffix.length), thinking: true } : { model, thinking: false };
}

/** Claude 3 (not 3.5 / 3.7), Claude 2 and Instant stop at 4,096 output tokens. */
const shortOutputModels = /^claude-(2|instant|3-(haiku|sonnet|opus)-)/;
/** Models without extended thinking (it arrived with Claude 3.7 Sonnet). */
const withoutThinking = /^claude-(2|instant|3-(haiku|sonnet|opus)-|3-5-)/;

/** The max_tokens sent when the client sets none (the relay's hold covers exactly this). */
export function defaultMaxTokens(model: string): number {
  const { model: base, thinking } = splitThinkingSuffix(model);
  const name = claudeName(base);
  if (shortOutputModels.test(name)) return 4096;
  // Thinking shares max_tokens with the answer: leave the answer room after the budget.
  return thinking ? 16384 : 8192;
}

/** Whether the model accepts `thinking` (a client's reasoning_effort is ignored otherwise). */
export function supportsThinking(model: string): boolean {
  return !withoutThinking.test(claudeName(model));
}
