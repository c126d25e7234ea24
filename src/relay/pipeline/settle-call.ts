// The last step of a served request: usage (the upstream's, else counted locally) -> quota by
// the billing formula (quota-math.ts) -> one settlement transaction with the consumption log. Runs once per request.
import { settleTokenMinute } from "../guards/token-rate-limits.ts";
import { periodStartOf } from "../../services/tokens/quota-period.ts";
import { consumeLogValues } from "../../services/billing/consume-log.ts";
import { settleQuota } from "../../services/billing/quota-holds.ts";
import { quotaForUsage } from "../../services/billing/quota-math.ts";
import { countCompletionTokens } from "../../services/billing/token-counter.ts";
import { optionBool, optionNumber } from "../../services/options/options.ts";
import { logger } from "../../logger.ts";
import { countBillingAnomaly, observeRelaySettled } from "../../metrics/metrics.ts";
import { routeModelName } from "../channels/channel-index.ts";
import { checkQuotaAlert } from "../../services/notify/quota-alerts.ts";
import { noteTokenRemain } from "../caches/token-cache.ts";
import { peekUser } from "../caches/user-cache.ts";
import { modelRateLimitEnabled, recordModelRequestSuccess } from "../guards/model-rate-limit.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { GeneratedOutput, InboundFormat, Usage } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";

export type ServedAnswer = {
  channel: Pick<ChannelSnapshot, "id" | "name">;
  upstreamModel: string;
  /** The format the channel was spoken to: the client's, or OpenAI's when converted. */
  upstreamFormat: InboundFormat;
  usage: Usage | null;
  output: () => GeneratedOutput;
  /** Why the answer is incomplete (client gone, upstream cut), for the log. */
  incomplete?: string;
};

/**
 * The low-balance alert, only when the new balance is under the user's threshold (known from the
 * user cache) or the site's: most settlements leave a healthy balance and cost no extra read.
 */
function alertIfLow(userId: number, userQuota: number): void {
  const threshold = peekUser(userId)?.quotaWarningThreshold ?? optionNumber("QuotaRemindThreshold");
  if (userQuota < threshold) void checkQuotaAlert(userId);
}

/**
 * The model as the metrics name it: as routing names it (GPTs folded), or "(pinned)" for an
 * admin's call pinned to a channel, whose model no channel list bounds.
 */
export function metricsModelLabel(context: RelayContext): string {
  return context.caller.pinnedChannelId === undefined ? routeModelName(context.call.model) : "(pinned)";
}

/**
 * The request's max_tokens when the upstream reported more completion tokens than it allows (n
 * choices may each use it): a sign of a broken or dishonest upstream, which flags the channel.
 */
function exceededMaxTokens(context: RelayContext, usage: Usage | null): number | undefined {
  const limit = context.call.maxTokens;
  if (limit === undefined || !usage) return undefined;
  const choices = Number(context.call.json?.n);
  const allowed = limit * (Number.isInteger(choices) && choices > 1 ? choices : 1);
  return usage.completion_tokens > allowed ? limit : undefined;
}

/** The log's flags: max_tokens exceeded, and a capture kept beside the entry (the console offers it). */
function logExtra(overMaxTokens: number | undefined, captured: boolean): Record<string, unknown> | undefined {
  if (overMaxTokens === undefined && !captured) return undefined;
  return { ...(overMaxTokens === undefined ? {} : { over_max_tokens: overMaxTokens }), ...(captured ? { captured: true } : {}) };
}

export async function settleCall(context: RelayContext, answer: ServedAnswer): Promise<void> {
  if (context.settled) return;
  context.settled = true;
  // Counting locally (no usage reported, a client that left) may take tens of milliseconds: when
  // many streams end at once, each waits for a turn of the loop that still has room (loop-turns.ts).
  if (!answer.usage && turnIsLong(performance.now())) await waitForShortTurn();
  const { call, caller, price } = context;
  const promptTokens = answer.usage?.prompt_tokens ?? context.prompt.count();
  const completionTokens =
    answer.usage?.completion_tokens ?? (context.endpoint.pricing === "tokens" ? countCompletionTokens(answer.output(), call.model) : 0);
  const cachedTokens = answer.usage?.cached_tokens ?? 0;
  const cacheCreationTokens = answer.usage?.cache_creation_tokens ?? 0;
  const quota = quotaForUsage(
    price,
    { promptTokens, completionTokens, cachedTokens, cacheCreationTokens },
    optionNumber("QuotaPerUnit"),
    context.units,
  );
  const overMaxTokens = exceededMaxTokens(context, answer.usage);
  const notes = [context.logNote, answer.usage ? undefined : "本地计数", answer.incomplete].filter(Boolean); // i18n-exempt: stored log text
  const log = optionBool("LogConsumeEnabled")
    ? consumeLogValues({
        requestId: context.requestId,
        userId: caller.userId,
        username: caller.username,
        tokenId: caller.tokenId,
        tokenName: caller.tokenName,
        model: call.model,
        upstreamModel: answer.upstreamModel,
        group: caller.group,
        channelId: answer.channel.id,
        channelName: answer.channel.name,
        price,
        quota,
        promptTokens,
        completionTokens,
        cachedTokens,
        cacheCreationTokens,
        useTimeSeconds: Math.round((performance.now() - context.startedAt) / 1000),
        isStream: call.stream,
        firstResponseMs: context.firstResponseMs,
        channelChain: context.channelChain,
        reasoningEffort: context.reasoningEffort,
        inboundFormat: call.format,
        converted: answer.upstreamFormat !== call.format,
        toolsLeftOut: context.toolsLeftOut,
        note: notes.length ? notes.join("，") : undefined, // i18n-exempt: stored log text
        extra: logExtra(overMaxTokens, context.capture !== undefined),
        ip: context.clientIp,
      })
    : null;
  let userQuota: number;
  try {
    const balances = await settleQuota({
      requestId: context.requestId,
      userId: caller.userId,
      tokenId: caller.tokenId,
      tokenLimited: caller.tokenLimited,
      tokenPeriodStart: caller.limits?.quotaPeriod ? periodStartOf(caller.limits.quotaPeriod) : 0,
      channelId: answer.channel.id,
      quota,
      overLimit: overMaxTokens !== undefined,
      log,
    });
    if (caller.tokenId && balances.tokenRemain !== undefined) noteTokenRemain(caller.tokenKey, balances.tokenRemain);
    if (context.minuteReserved !== undefined) void settleTokenMinute(context, promptTokens + completionTokens).catch(() => undefined);
    userQuota = balances.userQuota;
    const firstTokenSeconds = call.stream && context.firstResponseMs !== undefined ? context.firstResponseMs / 1000 : undefined;
    observeRelaySettled(
      context.endpoint.kind,
      metricsModelLabel(context),
      answer.channel.id,
      (performance.now() - context.startedAt) / 1000,
      firstTokenSeconds,
      balances.charged,
    );
    if (balances.uncollected > 0 || overMaxTokens !== undefined)
      countBillingAnomaly(answer.channel.id, balances.uncollected, overMaxTokens !== undefined);
  } catch (error) {
    // The charge is lost (the store refused it twice, alone and in its batch) and the hold ends:
    // the user is never charged twice or left with a reservation that no request will end.
    logger.error("settlement failed", {
      requestId: context.requestId,
      quota,
      error: error instanceof Error ? error.message : String(error),
    });
    return;
  }
  if (modelRateLimitEnabled()) await recordModelRequestSuccess(caller.userId).catch(() => undefined);
  if (quota > 0) alertIfLow(caller.userId, userQuota);
}
