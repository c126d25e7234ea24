// The relay, as a story: one request from arrival to settlement.
//
//   1. authenticate   who calls and who pays (token, or the console user of the playground)
//   2. limit          the user's model request rate limit (before the body is read)
//   3. read           the body, once, within the endpoint's size limit: model, stream, bytes
//   4. authorize      the token may use this model
//   5. guard          the sensitive-word check of the prompt
//   6. select         a channel for the group and model exists (or the pinned one)
//   7. price          the model's price, the prompt counted, the hold estimated
//   8. hold           reserve the estimate from user and token, atomically
//   9. forward        adapt -> send -> (retry on another channel) -> answer or stream -> settle
//
// Any failure before an answer leaves gives the hold back and answers with one OpenAI error
// object. Nothing here knows which provider a channel is: adaptors do. Every request is a
// flight (in-flight.ts) until it is settled or released, so a stopping server can wait for it.
import { AppError } from "../../errors/app-error.ts";
import { discardUnreadBody } from "../../http/read-body.ts";
import { requestTranslator } from "../../http/request-language.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { countUpstreamFailure, labelRelayRequest } from "../../metrics/metrics.ts";
import { groupRatioOf, requirePrice } from "../../services/billing/model-prices.ts";
import { holdQuota, releaseHold } from "../../services/billing/quota-holds.ts";
import { holdForRequest, type Price } from "../../services/billing/quota-math.ts";
import { optionNumber } from "../../services/options/options.ts";
import { channelIndex, currentChannelIndex } from "../caches/channel-cache.ts";
import { candidatesFor, routeModelName } from "../channels/channel-index.ts";
import { ChannelStatus, type ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { judgeChannelFailure } from "../channel-health.ts";
import type { BodyLimits } from "../../config.ts";
import { bodyLimitOf, type EndpointSpec } from "../endpoints.ts";
import { enforceModelRateLimit, modelRateLimitEnabled } from "../guards/model-rate-limit.ts";
import { refuseSensitiveWords, sensitiveWordCheckOn } from "../guards/sensitive-words.ts";
import { reasoningEffortSuffix } from "../providers/openai-compatible/openai-request.ts";
import { noteRelayRequest } from "../idle-collection.ts";
import type { RelayCaller, RelayContext } from "../relay-context.ts";
import { beginFlight } from "../in-flight.ts";
import { newRequestId } from "../request-id.ts";
import { imageCharge } from "../request/image-pricing.ts";
import { completionAllowanceOf, estimatePrompt, promptTexts } from "../request/prompt-estimate.ts";
import { readCall, type ParsedCall } from "../request/read-call.ts";
import { isRetryable } from "../routing/failure-rules.ts";
import { selectChannel } from "../routing/select-channel.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";
import { attemptChannel, attemptLimit, type RelayTimeouts } from "./attempt-channel.ts";
import { relayErrorResponse, serverStoppingMessage, UpstreamCallError } from "./relay-errors.ts";
import { answerWhole } from "./respond-json.ts";
import { streamToClient } from "./respond-stream.ts";
import { metricsModelLabel } from "./settle-call.ts";

export type RelayRequest = {
  request: Request;
  endpoint: EndpointSpec;
  authenticate: () => Promise<RelayCaller>;
  /** The model named by the path (/v1/engines/{model}/embeddings). */
  pathModel?: string;
  /** Finishes caller and call from the body (the playground's chosen group). */
  completeCaller?: (caller: RelayCaller, call: ParsedCall) => { caller: RelayCaller; call: ParsedCall };
  timeouts: RelayTimeouts;
  bodyLimits: BodyLimits;
};

type Route = { first: ChannelSnapshot; pinned: boolean };

export async function relayRequest({ request, endpoint, authenticate, pathModel, completeCaller, timeouts, bodyLimits }: RelayRequest): Promise<Response> {
  const startedAt = performance.now();
  const requestId = newRequestId();
  noteRelayRequest();
  // Only failures speak; the language is worked out when one does.
  const translate: Translate = (key, params) => requestTranslator(request)(key, params);
  const flight = beginFlight();
  if (!flight) return relayErrorResponse(new AppError("unavailable", serverStoppingMessage), translate, requestId, endpoint.format);
  let context: RelayContext | undefined;
  try {
    const authenticatedCaller = await authenticate();
    if (modelRateLimitEnabled()) await enforceModelRateLimit(authenticatedCaller.userId);
    const authenticated = { caller: authenticatedCaller, call: await readCall(request, endpoint, bodyLimitOf(endpoint, bodyLimits), pathModel) };
    const { caller, call } = completeCaller ? completeCaller(authenticated.caller, authenticated.call) : authenticated;
    authorizeModel(caller, call.model);
    if (sensitiveWordCheckOn()) refuseSensitiveWords(promptTexts(call));
    const route = await selectFirstChannel(caller, call.model);
    context = priceCall({ requestId, startedAt, endpoint, caller, call, flight }, kindDefaultMaxTokens(route.first, call.model));
    await reserveQuota(context);
    const response = await forwardUnlessCut(context, route, timeouts, translate);
    labelRelayRequest(request, metricsModelLabel(context), context.channelChain.at(-1));
    return response;
  } catch (error) {
    if (context) labelRelayRequest(request, metricsModelLabel(context), context.channelChain.at(-1));
    if (context?.held && !context.settled) await releaseHold(context.requestId).catch(() => undefined);
    if (error instanceof UpstreamCallError) {
      logger.warn("relay failed upstream", { requestId, channels: context?.channelChain.join("->"), status: error.failure.status });
    }
    await discardUnreadBody(request);
    return relayErrorResponse(error, translate, requestId, endpoint.format);
  } finally {
    // A stream keeps its flight until its settlement (respond-stream.ts); everything else is done.
    if (!context?.streaming) flight.end();
  }
}

/**
 * Forwards, unless the server stops before the answer: then the hold goes back, the client gets
 * 503, and an answer arriving later is not settled (the request counts as released). A stream
 * that started replaces this cut by its own.
 */
function forwardUnlessCut(context: RelayContext, route: Route, timeouts: RelayTimeouts, translate: Translate): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    context.flight.onCut(async () => {
      if (context.settled || context.streaming) return;
      context.settled = true;
      await releaseHold(context.requestId).catch(() => undefined);
      resolve(relayErrorResponse(new AppError("unavailable", serverStoppingMessage), translate, context.requestId, context.endpoint.format));
    });
    forward(context, route, timeouts, translate).then(resolve, reject);
  });
}

/** The token's model limits (pinned channels skip them, as in new-api). */
export function authorizeModel(caller: RelayCaller, model: string): void {
  if (caller.pinnedChannelId !== undefined || !caller.modelLimits) return;
  if (caller.modelLimits.size === 0) throw new AppError("forbidden", "该令牌无权访问任何模型");
  if (!caller.modelLimits.has(model)) throw new AppError("forbidden", "该令牌无权访问模型 {{model}}", { model });
}

export async function selectFirstChannel(caller: RelayCaller, model: string): Promise<Route> {
  const index = currentChannelIndex() ?? (await channelIndex());
  if (caller.pinnedChannelId !== undefined) {
    const channel = index.byId.get(caller.pinnedChannelId);
    if (!channel) throw new AppError("invalid", "无效的渠道 Id");
    if (channel.status !== ChannelStatus.enabled) throw new AppError("forbidden", "该渠道已被禁用");
    return { first: channel, pinned: true };
  }
  const first = selectChannel(candidatesFor(index, caller.group, model), 0, new Set());
  if (!first) {
    // A model no channel lists anywhere is a typo or a wrong name: 404, which the SDKs do not
    // retry (they retry a 503 three times). One that exists but has no usable channel now is 503.
    if (!index.knownModels.has(routeModelName(model))) {
      throw new AppError("not_found", "模型 {{model}} 不存在", { model }, { code: "model_not_found" });
    }
    throw new AppError("unavailable", "当前分组 {{group}} 下对于模型 {{model}} 无可用渠道", { group: caller.group, model });
  }
  return { first, pinned: false };
}

/** The output limit the first channel's kind sends when the client names none (0: none of its own). */
function kindDefaultMaxTokens(channel: ChannelSnapshot, model: string): number {
  const upstreamModel = channel.modelMapping?.[model] ?? model;
  return channel.adaptor?.defaultMaxTokens?.(upstreamModel) ?? 0;
}

function priceCall(start: Pick<RelayContext, "requestId" | "startedAt" | "endpoint" | "caller" | "flight"> & { call: ParsedCall }, kindDefault: number): RelayContext {
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
  const prompt = estimatePrompt(call);
  const allowance = completionAllowanceOf(call, optionNumber("PreConsumedQuota"), kindDefault);
  const effort = (call.asChat?.chat ?? call.json)?.reasoning_effort;
  return {
    ...start,
    price,
    units,
    prompt,
    completionAllowance: allowance,
    holdAmount: holdForRequest(price, prompt.bound, allowance, optionNumber("QuotaPerUnit"), units),
    held: false,
    settled: false,
    streaming: false,
    channelChain: [],
    reasoningEffort: typeof effort === "string" ? effort : reasoningEffortSuffix(call.model),
    logNote,
  };
}

/**
 * Reserves the hold. The hold is computed from the prompt's free bound; when the balance left is
 * close to it, the bound with the texts counted by the tokenizer is reserved instead.
 */
async function reserveQuota(context: RelayContext): Promise<void> {
  const { caller, price, prompt } = context;
  const tighter = price.kind === "ratio" && prompt.bound > 0;
  await holdQuota({
    requestId: context.requestId,
    userId: caller.userId,
    tokenId: caller.tokenId,
    tokenLimited: caller.tokenLimited,
    amount: context.holdAmount,
    refine: tighter
      ? () => holdForRequest(price, prompt.tightBound(), context.completionAllowance, optionNumber("QuotaPerUnit"), context.units)
      : undefined,
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
    countUpstreamFailure(failure, channel.id);
    await judgeChannelFailure(channel, failure);
    if (!isRetryable(failure)) break;
  }
  throw new UpstreamCallError(failure!);
}
