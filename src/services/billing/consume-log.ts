// The consumption log entry of a relay request (docs/COMPATIBILITY.md, Log types): who, which model and
// channel, the tokens and the quota, and in `other` how the price was reached (new-api's
// fields), so an entry explains its own amount.
import { nowSeconds } from "../../clock.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { LogType } from "../logs/log-types.ts";
import { atTier, priceDescription, tierOf, type Price } from "./quota-math.ts";

export type ConsumeLogValues = Tables["logs"]["$inferInsert"];

export type ConsumeFacts = {
  requestId: string;
  userId: number;
  username: string;
  tokenId: number;
  tokenName: string;
  /** The model the client asked for. */
  model: string;
  upstreamModel: string;
  group: string;
  channelId: number;
  channelName: string;
  price: Price;
  quota: number;
  promptTokens: number;
  completionTokens: number;
  /** Of the prompt tokens, those read from / written to the provider's cache (priced by cache ratios). */
  cachedTokens?: number;
  cacheCreationTokens?: number;
  useTimeSeconds: number;
  isStream: boolean;
  /** Milliseconds from request start to the first byte sent to the client. */
  firstResponseMs: number | undefined;
  /** Channel ids tried, in order (retries included). */
  channelChain: number[];
  reasoningEffort?: string;
  /** The wire format the client called in (openai, claude, gemini, responses). */
  inboundFormat?: string;
  /** The call reached its channel converted to the OpenAI chat format. */
  converted?: boolean;
  /** Tools the converted call went without (hosted tools the channel does not run). */
  toolsLeftOut?: string[];
  /** Extra words for the content (image size and quality, a note about missing usage). */
  note?: string;
  extra?: Record<string, unknown>;
  /** The client's address (shown to admins only). */
  ip?: string;
};

export function consumeLogValues(facts: ConsumeFacts): ConsumeLogValues {
  const mapped = facts.upstreamModel !== facts.model;
  // The ratios shown are those the call was billed at: its prompt-size tier's, when one applied.
  const tier = tierOf(facts.price, facts.promptTokens);
  const price = atTier(facts.price, tier);
  const other: Record<string, unknown> = {
    frt: facts.firstResponseMs ?? -1,
    model_ratio: price.kind === "ratio" ? price.modelRatio : 0,
    completion_ratio: price.kind === "ratio" ? price.completionRatio : 0,
    group_ratio: price.groupRatio,
    model_price: price.kind === "fixed" ? price.price : -1,
    admin_info: { use_channel: facts.channelChain.map(String) },
    ...facts.extra,
  };
  if (mapped) {
    other.is_model_mapped = true;
    other.upstream_model_name = facts.upstreamModel;
  }
  if (tier) other.price_tier = { above: tier.above };
  // A model without a price that the UnpricedModelPolicy billed anyway says so.
  if (price.unpriced) other.unpriced_policy = price.unpriced;
  if (facts.reasoningEffort) other.reasoning_effort = facts.reasoningEffort;
  // Calls in OpenAI's own format say nothing: only the vendors' formats are named.
  if (facts.inboundFormat && facts.inboundFormat !== "openai") {
    other.inbound_format = facts.inboundFormat;
    other.inbound_converted = facts.converted === true;
    if (facts.toolsLeftOut?.length) other.tools_left_out = facts.toolsLeftOut;
  }
  // new-api's names for the cache part of the price, shown only when the provider cached.
  if (price.kind === "ratio" && facts.cachedTokens) {
    other.cache_tokens = facts.cachedTokens;
    other.cache_ratio = price.cacheRatio ?? 1;
  }
  if (price.kind === "ratio" && facts.cacheCreationTokens) {
    other.cache_creation_tokens = facts.cacheCreationTokens;
    other.cache_creation_ratio = price.cacheCreationRatio ?? 1;
  }
  const notes = [
    tier ? `价格档：提示超过 ${tier.above} tokens` : undefined, // i18n-exempt: stored log text
    price.unpriced ? `未定价模型，按${price.unpriced === "free" ? "免费" : "默认倍率"}计费` : undefined, // i18n-exempt: stored log text
    facts.note,
  ].filter(Boolean);
  return {
    user_id: facts.userId,
    username: facts.username,
    created_at: nowSeconds(),
    type: LogType.consume,
    content: notes.length ? `${priceDescription(price)}，${notes.join("，")}` : priceDescription(price), // i18n-exempt: stored log text
    token_id: facts.tokenId,
    token_name: facts.tokenName,
    model_name: facts.model,
    quota: facts.quota,
    prompt_tokens: facts.promptTokens,
    completion_tokens: facts.completionTokens,
    use_time: facts.useTimeSeconds,
    is_stream: facts.isStream,
    channel_id: facts.channelId,
    channel_name: facts.channelName,
    group: facts.group,
    other: JSON.stringify(other),
    request_id: facts.requestId,
    ip: facts.ip ?? "",
  };
}
