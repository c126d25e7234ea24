// OpenAI's legacy billing endpoints, which chat clients call to show a key's balance
// (new-api: /dashboard/billing/subscription and /usage, also under /v1). The amounts are the
// token's (DisplayTokenStatEnabled) or its owner's, in dollars when the site shows currency.
import { eq } from "drizzle-orm";
import { optionBool, optionNumber } from "../services/options/options.ts";
import { db, t } from "../store/client.ts";
import type { RelayCaller } from "./relay-context.ts";

type Figures = { remain: number; used: number; unlimited: boolean; expiredTime: number };

async function figures(caller: RelayCaller): Promise<Figures> {
  if (optionBool("DisplayTokenStatEnabled") && caller.tokenId) {
    const [token] = await db
      .select({
        remain: t.tokens.remain_quota,
        used: t.tokens.used_quota,
        unlimited: t.tokens.unlimited_quota,
        expired: t.tokens.expired_time,
      })
      .from(t.tokens)
      .where(eq(t.tokens.id, caller.tokenId))
      .limit(1);
    if (token)
      return { remain: Number(token.remain), used: Number(token.used), unlimited: token.unlimited, expiredTime: Number(token.expired) };
  }
  const [user] = await db
    .select({ quota: t.users.quota, used: t.users.used_quota })
    .from(t.users)
    .where(eq(t.users.id, caller.userId))
    .limit(1);
  return { remain: Number(user?.quota ?? 0), used: Number(user?.used ?? 0), unlimited: false, expiredTime: -1 };
}

const inDisplayUnits = (quota: number) => (optionBool("DisplayInCurrencyEnabled") ? quota / optionNumber("QuotaPerUnit") : quota);

export async function billingSubscription(caller: RelayCaller) {
  const { remain, used, unlimited, expiredTime } = await figures(caller);
  const amount = unlimited ? 100_000_000 : inDisplayUnits(remain + used);
  return {
    object: "billing_subscription",
    has_payment_method: true,
    soft_limit_usd: amount,
    hard_limit_usd: amount,
    system_hard_limit_usd: amount,
    access_until: expiredTime === -1 ? 0 : expiredTime,
  };
}

export async function billingUsage(caller: RelayCaller) {
  const { used } = await figures(caller);
  return { object: "list", total_usage: inDisplayUnits(used) * 100 };
}
