// Counting tokens (/v1/messages/count_tokens, Gemini's :countTokens) is free, as Anthropic's own
// counting is, but it is work: it reads and converts a body of up to MAX_REQUEST_BODY_MB. So it
// obeys the user's model request rate limit like any call, and a per-minute limit of its own
// (Anthropic limits counting per minute too): the CountTokensRateLimit option, per user, 0 = off.
// Both are checked before the body is read.
import { shared } from "../../cache/open-shared-state.ts";
import { AppError } from "../../errors/app-error.ts";
import { optionNumber } from "../../services/options/options.ts";
import { enforceModelRateLimit, modelRateLimitEnabled } from "./model-rate-limit.ts";

export async function enforceCountTokensLimits(userId: number): Promise<void> {
  if (modelRateLimitEnabled()) await enforceModelRateLimit(userId);
  const perMinute = optionNumber("CountTokensRateLimit");
  if (perMinute <= 0) return;
  const verdict = await shared.hitWindow(`count-tokens:${userId}`, perMinute, 60);
  if (!verdict.allowed) {
    throw new AppError("rate_limited", "您已达到令牌计数请求数限制：每分钟最多请求{{count}}次", {
      count: perMinute,
      seconds: verdict.retryAfterSeconds,
    });
  }
}
