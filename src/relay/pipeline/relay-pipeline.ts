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
//   9. forward        adapt -> send -> (retry on another channel or key) -> answer or stream -> settle
//                     (forward-call.ts)
//
// Any failure before an answer leaves gives the hold back and answers with one OpenAI error
// object. Nothing here knows which provider a channel is: adaptors do. Every request is a
// flight (in-flight.ts) until it is settled or released, so a stopping server can wait for it.
import { AppError, isAppError } from "../../errors/app-error.ts";
import { discardUnreadBody } from "../../http/read-body.ts";
import { relayTranslator } from "../relay-language.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { labelRelayRequest } from "../../metrics/metrics.ts";
import { groupRatioOf, requirePrice } from "../../services/billing/model-prices.ts";
import { holdQuota, releaseHold } from "../../services/billing/quota-holds.ts";
import { holdForRequest, type Price } from "../../services/billing/quota-math.ts";
import { optionNumber } from "../../services/options/options.ts";
import { channelIndex, currentChannelIndex } from "../caches/channel-cache.ts";
import { candidatesFor, routeModelName, type ChannelIndex } from "../channels/channel-index.ts";
import { prepareResponsesCall } from "../inbound/responses/responses-state.ts";
import { ChannelStatus, type ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { BodyLimits } from "../../config.ts";
import { bodyLimitOf, type EndpointSpec } from "../endpoints.ts";
import { enforceModelRateLimit, modelRateLimitEnabled } from "../guards/model-rate-limit.ts";
import { admitTokenRequest, reserveTokenMinute } from "../guards/token-rate-limits.ts";
import { refuseSensitiveWords, sensitiveWordCheckOn } from "../guards/sensitive-words.ts";
import { reasoningEffortSuffix } from "../providers/openai-compatible/openai-request.ts";
import { noteRelayRequest } from "../idle-collection.ts";
import type { RelayCaller, RelayContext } from "../relay-context.ts";
import { beginFlight } from "../in-flight.ts";
import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";
import { newRequestId } from "../request-id.ts";
import { imageCharge } from "../request/image-pricing.ts";
import { completionAllowanceOf, estimatePrompt, promptTexts } from "../request/prompt-estimate.ts";
import { isLargeBody } from "../request/json-body.ts";
import { readCall, type ParsedCall } from "../request/read-call.ts";
import { selectChannel } from "../routing/select-channel.ts";
import type { RelayTimeouts } from "./attempt-types.ts";
import { relayErrorParts, relayErrorPartsResponse, relayErrorResponse, serverStoppingMessage, UpstreamCallError } from "./relay-errors.ts";
import { logRelayFailure } from "./failure-log.ts";
import { forwardCall, type Route } from "./forward-call.ts";
import { connectionIdle, type IdleTimeoutServer } from "./connection-idle.ts";
import { metricsModelLabel } from "./settle-call.ts";
import { captureOpen } from "../../services/captures/capture-window.ts";
import { CallCapture } from "../capture/call-capture.ts";

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
  /** The Bun server the request came to (its per-request idle timer, connection-idle.ts). */
  server?: IdleTimeoutServer;
  /** The client's address, asked only when a log entry records it. */
  clientAddress?: () => string;
};

export async function relayRequest({
  request,
  endpoint,
  authenticate,
  pathModel,
  completeCaller,
  timeouts,
  bodyLimits,
  server,
  clientAddress,
}: RelayRequest): Promise<Response> {
  const startedAt = performance.now();
  const requestId = newRequestId();
  noteRelayRequest();
  // Only failures speak; the language is worked out when one does.
  const translate: Translate = (key, params) => relayTranslator(request)(key, params);
  const flight = beginFlight();
  if (!flight) return relayErrorResponse(new AppError("unavailable", serverStoppingMessage), translate, requestId, endpoint.format);
  let context: RelayContext | undefined;
  // Known so far, for the error log of a call that fails on the way.
  let knownCaller: RelayCaller | undefined;
  let knownCall: ParsedCall | undefined;
  try {
    const authenticatedCaller = await authenticate();
    knownCaller = authenticatedCaller;
    if (modelRateLimitEnabled()) await enforceModelRateLimit(authenticatedCaller.userId);
    if (authenticatedCaller.limits) await admitTokenRequest(authenticatedCaller, flight);
    const authenticated = {
      caller: authenticatedCaller,
      call: await readCall(request, endpoint, bodyLimitOf(endpoint, bodyLimits), pathModel),
    };
    knownCall = authenticated.call;
    const completed = completeCaller ? completeCaller(authenticated.caller, authenticated.call) : authenticated;
    const { caller } = completed;
    knownCaller = caller;
    knownCall = completed.call;
    authorizeModel(caller, completed.call.model);
    // A large call's steps each take their time: the loop may poll for others between them.
    const large = isLargeBody(completed.call.rawBody);
    if (large && turnIsLong(performance.now())) await waitForShortTurn();
    if (sensitiveWordCheckOn()) refuseSensitiveWords(promptTexts(completed.call));
    if (large && turnIsLong(performance.now())) await waitForShortTurn();
    // A Responses call continues state the gateway keeps, or names the channel keeping it upstream.
    const call = completed.call.format === "responses" ? await prepareResponsesCall(completed.call, caller) : completed.call;
    knownCall = call;
    const route = await selectFirstChannel(caller, call.model, call.requiredChannelId);
    const connection = connectionIdle(server, request);
    // The request inspector: one comparison when the caller's window is closed (nearly always).
    const capture = captureOpen(caller.captureUntil) ? new CallCapture(request, caller.userId, call) : undefined;
    context = priceCall(
      { requestId, startedAt, endpoint, caller, call, flight, connection, clientIp: clientAddress?.() ?? "", capture },
      kindDefaultMaxTokens(route.first, call.model),
    );
    if (caller.limits?.tpm) await reserveTokenMinute(context);
    await reserveQuota(context);
    if (large && turnIsLong(performance.now())) await waitForShortTurn();
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
    const parts = relayErrorParts(error, translate, requestId);
    const response = relayErrorPartsResponse(parts, requestId, endpoint.format);
    // A call refused because the server stops is no failure of the caller's.
    if (!(isAppError(error) && error.messageKey === serverStoppingMessage)) {
      logRelayFailure({
        request,
        requestId,
        startedAt,
        error,
        parts,
        caller: knownCaller,
        model: knownCall?.model,
        stream: knownCall?.stream,
        channelChain: context?.channelChain,
        clientAddress,
        capture:
          knownCaller && captureOpen(knownCaller.captureUntil)
            ? await failureCapture(request, knownCaller, knownCall, response)
            : undefined,
      });
    }
    return response;
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
      resolve(
        relayErrorResponse(new AppError("unavailable", serverStoppingMessage), translate, context.requestId, context.endpoint.format),
      );
    });
    forwardCall(context, route, timeouts, translate).then(resolve, reject);
  });
}

/** The token's model limits (pinned channels skip them, as in new-api). */
export function authorizeModel(caller: RelayCaller, model: string): void {
  if (caller.pinnedChannelId !== undefined || !caller.modelLimits) return;
  if (caller.modelLimits.size === 0) throw new AppError("forbidden", "该令牌无权访问任何模型");
  if (!caller.modelLimits.has(model)) throw new AppError("forbidden", "该令牌无权访问模型 {{model}}", { model });
}

export async function selectFirstChannel(caller: RelayCaller, model: string, requiredChannelId?: number): Promise<Route> {
  const index = currentChannelIndex() ?? (await channelIndex());
  if (requiredChannelId !== undefined && caller.pinnedChannelId === undefined)
    return requiredChannel(index, caller, model, requiredChannelId);
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

/**
 * The channel that keeps the state a call continues (a Responses follow-up of an answer an OpenAI
 * or Azure channel stored): only it can serve the call, once, and only while the caller could
 * reach it for this model anyway.
 */
function requiredChannel(index: ChannelIndex, caller: RelayCaller, model: string, id: number): Route {
  const channel = index.byId.get(id);
  const reachable = candidatesFor(index, caller.group, model).some((tier) => tier.channels.includes(channel!));
  if (!channel || !reachable) {
    throw new AppError(
      "unavailable",
      "保存该响应的渠道当前不可用（渠道 #{{channel}}）",
      { channel: String(id) },
      { code: "channel_unavailable" },
    );
  }
  return { first: channel, pinned: true };
}

/** The output limit the first channel's type sends when the client names none (0: none of its own). */
function kindDefaultMaxTokens(channel: ChannelSnapshot, model: string): number {
  const upstreamModel = channel.modelMapping?.[model] ?? model;
  return channel.adaptor?.defaultMaxTokens?.(upstreamModel) ?? 0;
}

/** What the inspector keeps of a refused or failed call: the request as read, the error as answered. */
async function failureCapture(request: Request, caller: RelayCaller, call: ParsedCall | undefined, response: Response) {
  const capture = new CallCapture(request, caller.userId, call);
  const body = await response.clone().text();
  capture.answered(response.status, body, response.headers.get("content-type") ?? "");
  return capture.parts();
}

function priceCall(
  start: Pick<RelayContext, "requestId" | "startedAt" | "endpoint" | "caller" | "flight" | "connection" | "clientIp" | "capture"> & {
    call: ParsedCall;
  },
  kindDefault: number,
): RelayContext {
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
    tokenPeriodic: !!caller.limits?.quotaPeriod,
    amount: context.holdAmount,
    refine: tighter
      ? () => holdForRequest(price, prompt.tightBound(), context.completionAllowance, optionNumber("QuotaPerUnit"), context.units)
      : undefined,
  });
  context.held = true;
}
