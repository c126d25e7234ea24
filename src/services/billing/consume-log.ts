// The consumption log entry of a relay request (spec §3 Log entry): who, which model and
// channel, the tokens and the quota, and in `other` how the price was reached (new-api's
// fields), so an entry explains its own amount.
import { nowSeconds } from "../../clock.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { LogType } from "../logs/log-types.ts";
import { priceDescription, type Price } from "./quota-math.ts";

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
  /** Extra words for the content (image size and quality, a note about missing usage). */
  note?: string;
  extra?: Record<string, unknown>;
};

export function consumeLogValues(facts: ConsumeFacts): ConsumeLogValues {
  const mapped = facts.upstreamModel !== facts.model;
  const other: Record<string, unknown> = {
    frt: facts.firstResponseMs ?? -1,
    model_ratio: facts.price.kind === "ratio" ? facts.price.modelRatio : 0,
    completion_ratio: facts.price.kind === "ratio" ? facts.price.completionRatio : 0,
    group_ratio: facts.price.groupRatio,
    model_price: facts.price.kind === "fixed" ? facts.price.price : -1,
    admin_info: { use_channel: facts.channelChain.map(String) },
    ...facts.extra,
  };
  if (mapped) {
    other.is_model_mapped = true;
    other.upstream_model_name = facts.upstreamModel;
  }
  if (facts.reasoningEffort) other.reasoning_effort = facts.reasoningEffort;
  // Calls in OpenAI's own format say nothing: only the vendors' formats are named.
  if (facts.inboundFormat && facts.inboundFormat !== "openai") {
    other.inbound_format = facts.inboundFormat;
    other.inbound_converted = facts.converted === true;
  }
  // new-api's names for the cache part of the price, shown only when the provider cached.
  if (facts.price.kind === "ratio" && facts.cachedTokens) {
    other.cache_tokens = facts.cachedTokens;
    other.cache_ratio = facts.price.cacheRatio ?? 1;
  }
  if (facts.price.kind === "ratio" && facts.cacheCreationTokens) {
    other.cache_creation_tokens = facts.cacheCreationTokens;
    other.cache_creation_ratio = facts.price.cacheCreationRatio ?? 1;
  }
  return {
    user_id: facts.userId,
    username: facts.username,
    created_at: nowSeconds(),
    type: LogType.consume,
    content: facts.note ? `${priceDescription(facts.price)}，${facts.note}` : priceDescription(facts.price), // i18n-exempt: stored log text
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
  };
}
