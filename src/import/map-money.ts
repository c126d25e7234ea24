// Redemption codes and online top-up orders. Codes keep their keys and states, so an unused code
// printed on a card still redeems once; a used one stays used. Switchyard's codes do not expire,
// so a code new-api had let expire unused is imported disabled. Top-up orders keep their trade
// numbers (a late payment notice still finds its order) and get the quota they stand for.
import { nowSeconds } from "../clock.ts";
import { noteUnreadColumns, shiftedUser, type ImportContext, type TargetRow } from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { clip, deletedAtOf, floatOf, intOf, textOf } from "./source-values.ts";

export function noteMoneyColumns(context: ImportContext): void {
  noteUnreadColumns(context, "redemptions", [
    "id",
    "user_id",
    "key",
    "status",
    "name",
    "quota",
    "created_time",
    "redeemed_time",
    "used_user_id",
    "deleted_at",
    "expired_time",
  ]);
  noteUnreadColumns(context, "top_ups", [
    "id",
    "user_id",
    "amount",
    "money",
    "trade_no",
    "payment_method",
    "create_time",
    "complete_time",
    "status",
  ]);
}

const RedemptionStatus = { unused: 1, disabled: 2 } as const;

export function mapRedemption(context: ImportContext, row: SourceRow): TargetRow<"redemptions"> | null {
  const sourceId = intOf("redemptions", row, "id");
  const key = textOf(row, "key").trim();
  const name = clip(textOf(row, "name"), 64);
  if (!key || key.length > 64) {
    context.report.skip("redemptions", "without a usable code (empty or over 64 characters)", name || String(sourceId));
    return null;
  }
  if (context.taken.redemptionKeys.has(key)) {
    context.report.skip("redemptions", "whose code the target already has", name || String(sourceId));
    return null;
  }
  context.taken.redemptionKeys.add(key);
  let status = intOf("redemptions", row, "status", 1);
  const expiredTime = intOf("redemptions", row, "expired_time");
  if (status === RedemptionStatus.unused && expiredTime > 0) {
    if (expiredTime < nowSeconds()) {
      status = RedemptionStatus.disabled;
      context.report.skip("redemptions", "unused but expired: imported disabled", name || String(sourceId));
    } else {
      context.report.skip("redemptions", "with an expiry date Switchyard does not keep (they stay redeemable)", name || String(sourceId));
    }
  }
  return {
    id: sourceId + context.shift.redemptions,
    user_id: shiftedUser(context, intOf("redemptions", row, "user_id")),
    key,
    status,
    name,
    quota: intOf("redemptions", row, "quota"),
    created_time: intOf("redemptions", row, "created_time"),
    redeemed_time: intOf("redemptions", row, "redeemed_time"),
    used_user_id: shiftedUser(context, intOf("redemptions", row, "used_user_id")),
    deleted_at: context.schema.has("redemptions", "deleted_at") ? deletedAtOf("redemptions", row) : null,
  };
}

const knownTopUpStatuses = new Set(["pending", "success", "failed", "expired", "review"]);

export function mapTopUp(context: ImportContext, row: SourceRow): TargetRow<"top_ups"> | null {
  const sourceId = intOf("top_ups", row, "id");
  const userId = intOf("top_ups", row, "user_id");
  const tradeNo = textOf(row, "trade_no").trim();
  if (context.skippedUsers.has(userId)) {
    context.report.skip("top_ups", "of users left out", tradeNo || String(sourceId));
    return null;
  }
  if (!tradeNo || tradeNo.length > 128) {
    context.report.skip("top_ups", "without a usable trade number (empty or over 128 characters)", String(sourceId));
    return null;
  }
  if (context.taken.tradeNos.has(tradeNo)) {
    context.report.skip("top_ups", "whose trade number the target (or an earlier order) already has", tradeNo);
    return null;
  }
  context.taken.tradeNos.add(tradeNo);
  const amount = intOf("top_ups", row, "amount");
  const money = floatOf("top_ups", row, "money");
  const paymentMethod = clip(textOf(row, "payment_method"), 32);
  const status = textOf(row, "status").trim() || "pending";
  if (!knownTopUpStatuses.has(status))
    context.report.skip("top_ups", "with a status Switchyard does not use (kept as it is)", `${tradeNo} (${status})`);
  // new-api credits Stripe orders by the money paid and every other method by the amount bought.
  const units = paymentMethod === "stripe" ? money : amount;
  return {
    id: sourceId + context.shift.top_ups,
    user_id: shiftedUser(context, userId),
    amount,
    money,
    quota: Math.round(units * context.quotaPerUnit),
    trade_no: tradeNo,
    payment_method: paymentMethod,
    create_time: intOf("top_ups", row, "create_time"),
    complete_time: intOf("top_ups", row, "complete_time"),
    status: clip(status, 32),
  };
}
