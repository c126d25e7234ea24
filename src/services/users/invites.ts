// Referral earnings (new-api's aff flow and transfer): invite rewards accrue in
// aff_quota and become spendable only when moved to the balance. The move is one conditional
// update, so earnings are never spent twice, and it is logged as a top-up of the balance.
import { and, eq, gte, isNull, sql } from "drizzle-orm";
import { invalid } from "../../errors/app-error.ts";
import { t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { announceChange } from "../change-notices.ts";
import { LogType } from "../logs/log-types.ts";
import { insertLog } from "../logs/record-log.ts";
import { optionNumber } from "../options/options.ts";
import { parseInput } from "../parse-input.ts";
import { formatQuota, quotaLabel } from "../pricing/quota-format.ts";
import { affTransferInput } from "./user-schemas.ts";
import type { UserRow } from "./user-view.ts";

/** POST /api/user/aff_transfer: at least one quota unit (QuotaPerUnit); returns the new balance. */
export async function transferAffQuota(user: UserRow, body: unknown): Promise<number> {
  const { quota } = parseInput(affTransferInput, body);
  const minimum = optionNumber("QuotaPerUnit");
  if (quota < minimum) throw invalid("划转金额最低为{{amount}}", { amount: quotaLabel(minimum) });
  const balance = await transact(function* (tx) {
    const [row] = yield* run(
      tx
        .update(t.users)
        .set({ aff_quota: sql`${t.users.aff_quota} - ${quota}`, quota: sql`${t.users.quota} + ${quota}` })
        .where(and(eq(t.users.id, user.id), isNull(t.users.deleted_at), gte(t.users.aff_quota, quota)))
        .returning({ quota: t.users.quota }),
    );
    if (!row) throw invalid("邀请额度不足！");
    yield* run(
      insertLog(tx, {
        user_id: user.id,
        username: user.username,
        type: LogType.topUp,
        quota,
        content: `邀请奖励划转到余额 ${formatQuota(quota)}`, // i18n-exempt: stored log text
      }),
    );
    return row.quota;
  });
  await announceChange("users", user.id);
  return balance;
}
