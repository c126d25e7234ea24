// The relay, as a story: one request from arrival to settlement.
//
//   1. authenticate   who calls and who pays (token, or the console user of the playground)
//   2. read           the body, once: model, stream, the client's own bytes
//   3. authorize      the token may use this model
//   4. limit          the user's model request rate limit
//   5. guard          the sensitive-word check of the prompt
//   6. select         a channel for the group and model exists (or the pinned one)
//   7. price          the model's price, the prompt counted, the hold estimated
//   8. hold           reserve the estimate from user and token, atomically
//   9. forward        adapt -> send -> (retry on another channel) -> answer or stream -> settle
//
// Any failure before an answer leaves gives the hold back and answers with one OpenAI error
// object. Nothing here knows which provider a channel is: adaptors do.
import { AppError } from "../../errors/app-error.ts";
import { requestTranslator } from "../../http/request-language.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { groupRatioOf, requirePrice } from "../../services/billing/model-prices.ts";
import { holdQuota, releaseHold } from "../../services/billing/quota-holds.ts";
import { holdForRequest, type Price } from "../../services/billing/quota-math.ts";
import { optionNumber } from "../../services/options/options.ts";
import { channelIndex, currentChannelIndex } from "../caches/channel-cache.ts";
import { candidatesFor } from "../channels/channel-index.ts";
import { ChannelStatus, type ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { judgeChannelFailure } from "../channel-health.ts";
import type { EndpointSpec } from "../endpoints.ts";
import { enforceModelRateLimit, modelRateLimitEnabled } from "../guards/model-rate-limit.ts";
import { refuseSensitiveWords } from "../guards/sensitive-words.ts";
import { reasoningEffortSuffix } from "../providers/openai-compatible/openai-request.ts";
import type { RelayCaller, RelayContext } from "../relay-context.ts";
import { newRequestId } from "../request-id.ts";
import { imageCharge } from "../request/image-pricing.ts";
import { completionAllowanceOf, promptTexts, promptTokensOf } from "../request/prompt-estimate.ts";
import { readCall, type ParsedCall } from "../request/read-call.ts";
import { isRetryable } from "../routing/failure-rules.ts";
import { selectChannel } from "../routing/select-channel.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";
import { attemptChannel, attemptLimit, type RelayTimeouts } from "./attempt-channel.ts";
import { relayErrorResponse, UpstreamCallError } from "./relay-errors.ts";
import { answerWhole } from "./respond-json.ts";
import { streamToClient } from "./respond-stream.ts";

export type RelayRequest = {
  request: Request;
  endpoint: EndpointSpec;
  authenticate: () => Promise<RelayCaller>;
  /** The model named by the path (/v1/engines/{model}/embeddings). */
  pathModel?: string;
  /** Finishes caller and call from the body (the playground's chosen group). */
  completeCaller?: (caller: RelayCaller, call: ParsedCall) => { caller: RelayCaller; call: ParsedCall };
  timeouts: RelayTimeouts;
};

type Route = { first: ChannelSnapshot; pinned: boolean };

export async function relayRequest({ request, endpoint, authenticate, pathModel, completeCaller, timeouts }: RelayRequest): Promise<Response> {
  const startedAt = performance.now();
  const requestId = newRequestId();
  // Only failures speak; the language is worked out when one does.
  const translate: Translate = (key, params) => requestTranslator(request)(key, params);
  let context: RelayContext | undefined;
  try {
    const authenticated = { caller: await authenticate(), call: await readCall(request, endpoint, pathModel) };
    const { caller, call } = completeCaller ? completeCaller(authenticated.caller, authenticated.call) : authenticated;
    authorizeModel(caller, call.model);
    if (modelRateLimitEnabled()) await enforceModelRateLimit(caller.userId);
    refuseSensitiveWords(promptTexts(call));
    const route = await selectFirstChannel(caller, call.model);
    context = priceCall({ requestId, startedAt, endpoint, caller, call });
    await reserveQuota(context);
    return await forward(context, route, timeouts, translate);
  } catch (error) {
    if (context?.held && !context.settled) await releaseHold(context.requestId).catch(() => undefined);
    if (error instanceof UpstreamCallError) {
      logger.warn("relay failed upstream", { requestId, channels: context?.channelChain.join("->"), status: error.failure.status });
    }
    return relayErrorResponse(error, translate, requestId);
  }
}

function authorizeModel(caller: RelayCaller, model: string): void {
  if (caller.pinnedChannelId !== undefined || !caller.modelLimits) return;
  if (caller.modelLimits.size === 0) throw new AppError("forbidden", "该令牌无权访问任何模型");
  if (!caller.modelLimits.has(model)) throw new AppError("forbidden", "该令牌无权访问模型 {{model}}", { model });
}

async function selectFirstChannel(caller: RelayCaller, model: string): Promise<Route> {
  const index = currentChannelIndex() ?? (await channelIndex());
  if (caller.pinnedChannelId !== undefined) {
    const channel = index.byId.get(caller.pinnedChannelId);
    if (!channel) throw new AppError("invalid", "无效的渠道 Id");
    if (channel.status !== ChannelStatus.enabled) throw new AppError("forbidden", "该渠道已被禁用");
    return { first: channel, pinned: true };
  }
  const first = selectChannel(candidatesFor(index, caller.group, model), 0, new Set());
  if (!first) {
    throw new AppError("unavailable", "当前分组 {{group}} 下对于模型 {{model}} 无可用渠道", { group: caller.group, model });
  }
  return { first, pinned: false };
}

function priceCall(start: Pick<RelayContext, "requestId" | "startedAt" | "endpoint" | "caller"> & { call: ParsedCall }): RelayContext {
  const { call, caller, endpoint } = start;
  const modelPrice = requirePrice(call.model);
  const groupRatio = groupRatioOf(caller.group);
  let price: Price = { ...modelPrice, groupRatio };
  let units = 1;
  let logNote: string | undefined;
  if (endpoint.pricing === "images") {
    const charge = imageCharge(call, modelPrice);
    price = { ...charge.pricePerImage, groupRatio };
    units = charge.units;
    logNote = charge.note;
  }
  const promptTokens = promptTokensOf(call);
  const allowance = completionAllowanceOf(call, optionNumber("PreConsumedQuota"));
  const effort = call.json?.reasoning_effort;
  return {
    ...start,
    price,
    units,
    promptTokens,
    holdAmount: holdForRequest(price, promptTokens, allowance, optionNumber("QuotaPerUnit"), units),
    held: false,
    settled: false,
    channelChain: [],
    reasoningEffort: typeof effort === "string" ? effort : reasoningEffortSuffix(call.model),
    logNote,
  };
}

async function reserveQuota(context: RelayContext): Promise<void> {
  const { caller } = context;
  await holdQuota({
    requestId: context.requestId,
    userId: caller.userId,
    tokenId: caller.tokenId,
    tokenLimited: caller.tokenLimited,
    amount: context.holdAmount,
  });
  context.held = true;
}

async function nextChannel(context: RelayContext, attempt: number, tried: ReadonlySet<number>): Promise<ChannelSnapshot | undefined> {
  const index = await channelIndex();
  return selectChannel(candidatesFor(index, context.caller.group, context.call.model), attempt, tried);
}

async function forward(context: RelayContext, route: Route, timeouts: RelayTimeouts, translate: Translate): Promise<Response> {
  const tried = new Set<number>();
  const attempts = attemptLimit(route.pinned);
  let failure: UpstreamFailure | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const channel = attempt === 0 ? route.first : await nextChannel(context, attempt, tried);
    if (!channel) break;
    tried.add(channel.id);
    context.channelChain.push(channel.id);
    const outcome = await attemptChannel(context, channel, timeouts);
    if (outcome.ok) {
      return outcome.kind === "json"
        ? await answerWhole(context, channel, outcome.call, outcome.converted)
        : streamToClient(context, channel, outcome.call, outcome.stream, translate);
    }
    failure = outcome.failure;
    await judgeChannelFailure(channel, failure);
    if (!isRetryable(failure)) break;
  }
  throw new UpstreamCallError(failure!);
}
