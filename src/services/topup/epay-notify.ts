// The Epay payment notification (reliability plan A3, P1-P6, L8). It credits an order only when
// the signature verifies with our merchant key, the merchant id is ours, the trade succeeded,
// and the money and payment type are the order's. Crediting is one transaction whose first step
// is the single pending -> success transition of the order: however often and however
// concurrently the same notification arrives, on one instance or several, one of them changes
// the order and credits it; the others find it done. A paid order whose details do not match
// moves to "review" for a person to look at, and is never credited automatically.
import { and, eq, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { logger } from "../../logger.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { announceChange } from "../change-notices.ts";
import { LogType } from "../logs/log-types.ts";
import { insertLog } from "../logs/record-log.ts";
import { optionText } from "../options/options.ts";
import { formatQuota } from "../pricing/quota-format.ts";
import { epayVerify, type EpayParams } from "./epay-signature.ts";
import type { TopUpRow } from "./topup-orders.ts";

/** What Epay expects as the whole response body. */
export type EpayAnswer = "success" | "fail";

/** Money as whole cents from Epay's decimal text; NaN when it is not a plain decimal. */
function centsOf(money: string | undefined): number {
  if (!money || !/^\d+(\.\d{1,8})?$/.test(money.trim())) return Number.NaN;
  return Math.round(Number((Number(money) * 100).toPrecision(15)));
}

async function findOrder(tradeNo: string): Promise<TopUpRow | undefined> {
  const [order] = await db.select().from(t.top_ups).where(eq(t.top_ups.trade_no, tradeNo)).limit(1);
  return order;
}

function mismatch(order: TopUpRow, params: EpayParams): string | undefined {
  if (centsOf(params.money) !== Math.round(order.money * 100)) return `money ${params.money} for an order of ${order.money}`;
  if (params.type !== undefined && params.type !== order.payment_method) return `type ${params.type} for a ${order.payment_method} order`;
  return undefined;
}

async function sendToReview(order: TopUpRow, reason: string): Promise<void> {
  await db
    .update(t.top_ups)
    .set({ status: "review", complete_time: nowSeconds() })
    .where(and(eq(t.top_ups.id, order.id), eq(t.top_ups.status, "pending")));
  logger.warn("epay notify does not match its order: kept for manual review", { trade_no: order.trade_no, reason });
}

/** Credits a verified, matching order once; true when this call did it or it was already done. */
async function credit(order: TopUpRow): Promise<boolean> {
  const credited = await transact(function* (tx) {
    const [changed] = yield* run(
      tx
        .update(t.top_ups)
        .set({ status: "success", complete_time: nowSeconds() })
        .where(and(eq(t.top_ups.id, order.id), eq(t.top_ups.status, "pending")))
        .returning({ id: t.top_ups.id }),
    );
    if (!changed) return false;
    const [user] = yield* run(
      tx
        .update(t.users)
        .set({ quota: sql`${t.users.quota} + ${order.quota}` })
        .where(eq(t.users.id, order.user_id))
        .returning({ username: t.users.username }),
    );
    if (!user) throw new Error(`top-up order ${order.trade_no} belongs to no user`);
    yield* run(
      insertLog(tx, {
        user_id: order.user_id,
        username: user.username,
        type: LogType.topUp,
        content: `使用在线充值成功，充值金额: ${formatQuota(order.quota)}，支付金额：${order.money.toFixed(2)}`, // i18n-exempt: stored log text
        quota: order.quota,
      }),
    );
    return true;
  });
  if (credited) {
    await announceChange("users", order.user_id);
    return true;
  }
  return (await findOrder(order.trade_no))?.status === "success";
}

/** GET or POST /api/user/epay/notify with the provider's parameters. */
export async function handleEpayNotify(params: EpayParams): Promise<EpayAnswer> {
  if (!epayVerify(params, optionText("EpayKey"))) return "fail";
  if (params.pid !== optionText("EpayId")) return "fail";
  const order = params.out_trade_no ? await findOrder(params.out_trade_no) : undefined;
  if (!order) return "fail";
  // A verified notice of an unfinished payment: acknowledged, nothing changes.
  if (params.trade_status !== "TRADE_SUCCESS") return "success";
  if (order.status === "success") return "success";
  if (order.status !== "pending") return "fail";
  const reason = mismatch(order, params);
  if (reason) {
    await sendToReview(order, reason);
    return "fail";
  }
  return (await credit(order)) ? "success" : "fail";
}

/** The browser's return from the payment page: checked, never credits; names the order to show. */
export function verifiedReturnTradeNo(params: EpayParams): string | undefined {
  if (!epayVerify(params, optionText("EpayKey")) || params.pid !== optionText("EpayId")) return undefined;
  return params.out_trade_no || undefined;
}
