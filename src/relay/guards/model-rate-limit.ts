// The per-user model request rate limit (ModelRequestRateLimit* options, new-api
// middleware/model-rate-limit.go): a window over all requests, checked and counted before
// relaying, and a window over successful ones, counted after the answer. Windows live in
// SharedState, so several instances count together; options are read per request.
import { AppError } from "../../errors/app-error.ts";
import { shared } from "../../cache/open-shared-state.ts";
import { optionBool, optionNumber } from "../../services/options/options.ts";

const windowSeconds = () => Math.max(1, optionNumber("ModelRequestRateLimitDurationMinutes")) * 60;

export const modelRateLimitEnabled = () => optionBool("ModelRequestRateLimitEnabled");

export async function enforceModelRateLimit(userId: number): Promise<void> {
  if (!modelRateLimitEnabled()) return;
  const minutes = Math.max(1, optionNumber("ModelRequestRateLimitDurationMinutes"));
  const successLimit = optionNumber("ModelRequestRateLimitSuccessCount");
  if (successLimit > 0 && (await shared.countWindow(`model-rate:success:${userId}`, windowSeconds())) >= successLimit) {
    // When the oldest success leaves the window is not known here: the window is the longest wait.
    throw new AppError("rate_limited", "您已达到请求数限制：{{minutes}}分钟内最多请求{{count}}次", {
      minutes,
      count: successLimit,
      seconds: windowSeconds(),
    });
  }
  const totalLimit = optionNumber("ModelRequestRateLimitCount");
  if (totalLimit > 0) {
    const verdict = await shared.hitWindow(`model-rate:total:${userId}`, totalLimit, windowSeconds());
    if (!verdict.allowed) {
      throw new AppError(
        "rate_limited",
        "您已达到总请求数限制：{{minutes}}分钟内最多请求{{count}}次，包括失败次数，请检查您的请求是否正确",
        { minutes, count: totalLimit, seconds: verdict.retryAfterSeconds },
      );
    }
  }
}

/** Counts a successful request against the success window. */
export async function recordModelRequestSuccess(userId: number): Promise<void> {
  if (!optionBool("ModelRequestRateLimitEnabled") || optionNumber("ModelRequestRateLimitSuccessCount") <= 0) return;
  await shared.recordHit(`model-rate:success:${userId}`, windowSeconds());
}
