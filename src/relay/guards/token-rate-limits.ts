// A token's own limits on the relay (issue 27): requests per minute and requests in flight,
// checked before the body is read, and prompt + completion tokens per minute, reserved with the
// hold (token-meters.ts says how). Each refusal is a 429 with its code and when to come back.
// Drawing and music submissions pass the same limits (relay/tasks/task-routing.ts).
// A token without limits never gets here (the caller carries no `limits`).
import { shared } from "../../cache/open-shared-state.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Flight } from "../in-flight.ts";
import type { RelayCaller, RelayContext } from "../relay-context.ts";
import { tokenMeters } from "./token-meters.ts";

const tokenRpmLimited = "令牌请求过于频繁：每分钟最多 {{count}} 次";
const tokenConcurrencyLimited = "令牌同时进行的请求过多：最多 {{count}} 个";
const tokenTpmLimited = "令牌每分钟的 token 数已达上限：{{count}}";

/** How long a client refused for concurrency waits before trying again. */
const concurrencyRetrySeconds = 1;

/** Takes the token's slot and counts the request in its minute, or refuses. */
export async function admitTokenRequest(caller: RelayCaller, flight: Flight): Promise<void> {
  const limits = caller.limits;
  if (!limits) return;
  const meters = tokenMeters();
  if (limits.concurrency > 0) {
    if (!(await meters.takeSlot(caller.tokenId, limits.concurrency))) {
      throw new AppError(
        "rate_limited",
        tokenConcurrencyLimited,
        { count: limits.concurrency, seconds: concurrencyRetrySeconds },
        { code: "token_concurrency_limited" },
      );
    }
    flight.onEnd(() => meters.giveSlot(caller.tokenId));
  }
  if (limits.rpm > 0) {
    const verdict = await shared.hitWindow(`token-rpm:${caller.tokenId}`, limits.rpm, 60);
    if (!verdict.allowed) {
      throw new AppError(
        "rate_limited",
        tokenRpmLimited,
        { count: limits.rpm, seconds: verdict.retryAfterSeconds },
        { code: "token_rpm_limited" },
      );
    }
  }
}

/**
 * Reserves the call's tokens in the token's minute: the prompt's free bound plus the completion
 * allowance, or, when that does not fit, the bound with the texts counted. The reservation is
 * dropped when the request ends unsettled.
 */
export async function reserveTokenMinute(context: RelayContext): Promise<void> {
  const { caller, prompt, flight } = context;
  const limit = caller.limits?.tpm ?? 0;
  if (limit <= 0) return;
  const meters = tokenMeters();
  let tokens = prompt.bound + context.completionAllowance;
  let verdict = await meters.reserveMinute(caller.tokenId, context.requestId, tokens, limit);
  if (!verdict.allowed && prompt.bound > 0) {
    const tighter = prompt.tightBound() + context.completionAllowance;
    if (tighter < tokens) {
      tokens = tighter;
      verdict = await meters.reserveMinute(caller.tokenId, context.requestId, tokens, limit);
    }
  }
  if (!verdict.allowed) {
    throw tpmRefusal(limit, verdict.retryAfterSeconds);
  }
  context.minuteReserved = tokens;
  flight.onEnd(() => {
    if (context.minuteReserved !== undefined) return meters.dropMinute(caller.tokenId, context.requestId, tokens);
  });
}

/** The 429 of a token whose tokens-per-minute limit is reached, on /v1 and on the task routes alike. */
function tpmRefusal(limit: number, retryAfterSeconds: number): AppError {
  return new AppError("rate_limited", tokenTpmLimited, { count: limit, seconds: retryAfterSeconds }, { code: "token_tpm_limited" });
}

/**
 * A drawing or music submission in the token's minute: it has no prompt or completion tokens to
 * count, so it is admitted while the minute has room for one token (the least any call on /v1
 * reserves); the reservation is dropped when the submission ends, leaving the minute as it was.
 */
export async function reserveTaskMinute(caller: RelayCaller, requestId: string, flight: Flight): Promise<void> {
  const limit = caller.limits?.tpm ?? 0;
  if (limit <= 0) return;
  const meters = tokenMeters();
  const verdict = await meters.reserveMinute(caller.tokenId, requestId, taskMinuteTokens, limit);
  if (!verdict.allowed) {
    throw tpmRefusal(limit, verdict.retryAfterSeconds);
  }
  flight.onEnd(() => meters.dropMinute(caller.tokenId, requestId, taskMinuteTokens));
}

const taskMinuteTokens = 1;

/** The settled call's tokens replace its reservation in the token's minute. */
export async function settleTokenMinute(context: RelayContext, used: number): Promise<void> {
  const reserved = context.minuteReserved;
  if (reserved === undefined) return;
  context.minuteReserved = undefined;
  await tokenMeters().settleMinute(context.caller.tokenId, context.requestId, reserved, used);
}
