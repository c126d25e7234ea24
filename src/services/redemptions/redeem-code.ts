// Redeeming a code (POST /api/user/topup). One transaction does a compare-and-swap on the code
// (unused -> used, for this user) and, only when that write changed a row, credits the user and
// writes the top-up log. Concurrent redeemers of one code therefore credit it exactly once, on
// SQLite (the transaction holds the write lock) and on PostgreSQL (the second UPDATE waits for
// the first and then no longer matches). See reliability plan A2, R1-R4, L7.
import { and, eq, isNull, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { announceChange } from "../change-notices.ts";
import { LogType } from "../logs/log-types.ts";
import { insertLog } from "../logs/record-log.ts";
import { parseInput } from "../parse-input.ts";
import { formatQuota } from "../pricing/quota-format.ts";
import type { UserRow } from "../users/user-view.ts";
import { redeemInput } from "./redemption-schemas.ts";
import { RedemptionStatus } from "./redemption-status.ts";

/** Why a code could not be redeemed, read after the compare-and-swap found nothing to change. */
async function refusal(key: string): Promise<never> {
  const [code] = await db
    .select({ status: t.redemptions.status })
    .from(t.redemptions)
    .where(and(eq(t.redemptions.key, key), isNull(t.redemptions.deleted_at)))
    .limit(1);
  if (code?.status === RedemptionStatus.used) throw invalid("兑换失败，该兑换码已被使用");
  if (code?.status === RedemptionStatus.disabled) throw invalid("兑换失败，该兑换码已被禁用");
  throw invalid("兑换失败，无效的兑换码");
}

/** Credits the code's quota to the user; returns the quota added. */
export async function redeemCode(user: UserRow, body: unknown): Promise<number> {
  const { key } = parseInput(redeemInput, body);
  const now = nowSeconds();
  const credited = await transact(function* (tx) {
    const [code] = yield* run(
      tx
        .update(t.redemptions)
        .set({ status: RedemptionStatus.used, redeemed_time: now, used_user_id: user.id })
        .where(and(eq(t.redemptions.key, key), eq(t.redemptions.status, RedemptionStatus.unused), isNull(t.redemptions.deleted_at)))
        .returning({ id: t.redemptions.id, quota: t.redemptions.quota }),
    );
    if (!code) return undefined;
    const [account] = yield* run(
      tx
        .update(t.users)
        .set({ quota: sql`${t.users.quota} + ${code.quota}` })
        .where(and(eq(t.users.id, user.id), isNull(t.users.deleted_at)))
        .returning({ id: t.users.id }),
    );
    // Throwing rolls the code back to unused: an account deleted meanwhile gets nothing.
    if (!account) throw invalid("兑换失败，用户不存在");
    yield* run(
      insertLog(tx, {
        user_id: user.id,
        username: user.username,
        type: LogType.topUp,
        content: `通过兑换码充值 ${formatQuota(code.quota)}，兑换码ID ${code.id}`, // i18n-exempt: stored log text
        quota: code.quota,
      }),
    );
    return code.quota;
  });
  if (credited === undefined) return refusal(key);
  await announceChange("users", user.id);
  return credited;
}
