// Per-address rate limits for /api: a tight one for credential endpoints (login, registration,
// codes, OAuth) and a loose one for everything else. Windows live in SharedState, so several
// instances count together.
import { AppError } from "../errors/app-error.ts";
import { shared } from "../cache/open-shared-state.ts";

export type RateLimit = { count: number; seconds: number };

export async function enforceRateLimit(scope: string, address: string, limit: RateLimit): Promise<void> {
  if (limit.count <= 0) return;
  const verdict = await shared.hitWindow(`rate:${scope}:${address}`, limit.count, limit.seconds);
  if (!verdict.allowed) {
    throw new AppError("rate_limited", "请求过于频繁，请 {{seconds}} 秒后再试", { seconds: verdict.retryAfterSeconds });
  }
}
