// The money of a drawing or music submission, through the ledger's public moves
// (services/billing/quota-holds.ts): the action's price is held before the upstream is asked,
// settled (with its consumption log) only when the upstream accepted the task, and released
// otherwise. A task costs its model's fixed price per call times the group ratio; a model priced
// only by a token ratio cannot price a call without tokens, so it is refused like an unpriced one.
//
// Unlike other requests, a task's consumption log is written even when LogConsumeEnabled is off:
// it is the proof of the charge that a refund of the failed task reverses (task-refund.ts).
import { periodStartOf } from "../../services/tokens/quota-period.ts";
import { logger } from "../../logger.ts";
import { countBillingAnomaly } from "../../metrics/metrics.ts";
import { consumeLogValues } from "../../services/billing/consume-log.ts";
import { groupRatioOf, priceNotConfigured, requirePrice } from "../../services/billing/model-prices.ts";
import { holdQuota, releaseHold, settleQuota } from "../../services/billing/quota-holds.ts";
import { quotaForUsage, type Price } from "../../services/billing/quota-math.ts";
import { checkQuotaAlert } from "../../services/notify/quota-alerts.ts";
import { optionNumber } from "../../services/options/options.ts";
import { noteTokenRemain } from "../caches/token-cache.ts";
import { peekUser } from "../caches/user-cache.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { modelRateLimitEnabled, recordModelRequestSuccess } from "../guards/model-rate-limit.ts";
import type { RelayCaller } from "../relay-context.ts";

export type TaskCharge = {
  requestId: string;
  model: string;
  price: Price;
  quota: number;
  held: boolean;
  /** performance.now() at arrival, for the log's use time. */
  startedAt: number;
};

export function priceTask(caller: RelayCaller, model: string, requestId: string, startedAt: number): TaskCharge {
  // A task is priced per call: a model with only a ratio (or none) has no price for it.
  const modelPrice = requirePrice(model);
  if (modelPrice.kind !== "fixed") throw priceNotConfigured(model);
  const price: Price = { ...modelPrice, groupRatio: groupRatioOf(caller.group) };
  const quota = quotaForUsage(price, { promptTokens: 0, completionTokens: 0 }, optionNumber("QuotaPerUnit"));
  return { requestId, model, price, quota, held: false, startedAt };
}

/** Reserves the price from user and token; refuses when either cannot pay. */
export async function holdTaskCharge(caller: RelayCaller, charge: TaskCharge): Promise<void> {
  await holdQuota({
    requestId: charge.requestId,
    userId: caller.userId,
    tokenId: caller.tokenId,
    tokenLimited: caller.tokenLimited,
    tokenPeriodic: !!caller.limits?.quotaPeriod,
    amount: charge.quota,
  });
  charge.held = true;
}

export async function releaseTaskCharge(charge: TaskCharge | undefined): Promise<void> {
  if (!charge?.held) return;
  charge.held = false;
  await releaseHold(charge.requestId).catch(() => undefined);
}

/**
 * Turns the hold into the charge with its log. Resolves to what was charged: the price, or less
 * when the balance had less left (it never goes below zero); undefined when the settlement
 * failed, and the task must not count as paid.
 */
export async function settleTaskCharge(
  caller: RelayCaller,
  charge: TaskCharge,
  channel: ChannelSnapshot,
  note: string,
): Promise<number | undefined> {
  charge.held = false;
  const log = consumeLogValues({
    requestId: charge.requestId,
    userId: caller.userId,
    username: caller.username,
    tokenId: caller.tokenId,
    tokenName: caller.tokenName,
    model: charge.model,
    upstreamModel: charge.model,
    group: caller.group,
    channelId: channel.id,
    channelName: channel.name,
    price: charge.price,
    quota: charge.quota,
    promptTokens: 0,
    completionTokens: 0,
    useTimeSeconds: Math.round((performance.now() - charge.startedAt) / 1000),
    isStream: false,
    firstResponseMs: undefined,
    channelChain: [channel.id],
    note,
  });
  let charged: number;
  try {
    const balances = await settleQuota({
      requestId: charge.requestId,
      userId: caller.userId,
      tokenId: caller.tokenId,
      tokenLimited: caller.tokenLimited,
      tokenPeriodStart: caller.limits?.quotaPeriod ? periodStartOf(caller.limits.quotaPeriod) : 0,
      channelId: channel.id,
      quota: charge.quota,
      log,
    });
    if (caller.tokenId && balances.tokenRemain !== undefined) noteTokenRemain(caller.tokenKey, balances.tokenRemain);
    charged = balances.charged;
    if (balances.uncollected > 0) countBillingAnomaly(channel.id, balances.uncollected, false);
    const threshold = peekUser(caller.userId)?.quotaWarningThreshold ?? optionNumber("QuotaRemindThreshold");
    if (charge.quota > 0 && balances.userQuota < threshold) void checkQuotaAlert(caller.userId);
  } catch (error) {
    logger.error("task settlement failed", { requestId: charge.requestId, error: error instanceof Error ? error.message : String(error) });
    return undefined;
  }
  if (modelRateLimitEnabled()) await recordModelRequestSuccess(caller.userId).catch(() => undefined);
  return charged;
}
