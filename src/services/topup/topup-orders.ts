// Starting an online top-up (POST /api/user/pay): a pending order row, and the signed Epay form
// the browser posts to the gateway's submit.php. The order fixes what will be credited, so
// later price or option changes cannot alter an order already paid for.
import { and, desc, eq } from "drizzle-orm";
import { z } from "zod";
import { nowSeconds } from "../../clock.ts";
import { AppError, invalid } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import { optionText } from "../options/options.ts";
import { parseInput } from "../parse-input.ts";
import { randomAlphanumeric } from "../users/random-codes.ts";
import type { UserRow } from "../users/user-view.ts";
import { epaySign, type EpayParams } from "./epay-signature.ts";
import { centsText, onlineTopUpEnabled, quoteTopUp, topUpAmountInput } from "./topup-quote.ts";

export type TopUpRow = (typeof t.top_ups)["$inferSelect"];

/** The console's method names (zfb, wx) and Epay's (alipay, wxpay). */
const methods: Record<string, string> = { zfb: "alipay", alipay: "alipay", wx: "wxpay", wxpay: "wxpay" };

export const payInput = topUpAmountInput.extend({
  payment_method: z.string({ error: "不支持的支付方式" }),
});

function requireOnlineTopUp(): void {
  if (!onlineTopUpEnabled()) throw new AppError("forbidden", "管理员未开启在线充值！");
}

/** POST /api/user/amount: the money to pay for an amount, as "7.30". */
export function quotePayment(user: UserRow, body: unknown): string {
  requireOnlineTopUp();
  const { amount } = parseInput(topUpAmountInput, body);
  return centsText(quoteTopUp(user.group, amount).cents);
}

export type PaymentForm = { data: EpayParams; url: string };

export async function createEpayOrder(user: UserRow, body: unknown): Promise<PaymentForm> {
  requireOnlineTopUp();
  const input = parseInput(payInput, body);
  const type = methods[input.payment_method];
  if (!type) throw invalid("不支持的支付方式");
  const quote = quoteTopUp(user.group, input.amount);
  const serverAddress = optionText("ServerAddress");
  const callbackAddress = optionText("CustomCallbackAddress") || serverAddress;
  if (!serverAddress || !callbackAddress) throw invalid("请先填写服务器地址");
  const now = nowSeconds();
  const tradeNo = `USR${user.id}NO${randomAlphanumeric(6)}${now}`;
  const money = centsText(quote.cents);
  await db.insert(t.top_ups).values({
    user_id: user.id,
    amount: quote.amount,
    money: quote.cents / 100,
    quota: quote.quota,
    trade_no: tradeNo,
    payment_method: type,
    create_time: now,
    status: "pending",
  });
  const params: EpayParams = {
    pid: optionText("EpayId"),
    type,
    out_trade_no: tradeNo,
    notify_url: `${callbackAddress}/api/user/epay/notify`,
    return_url: `${serverAddress}/api/user/epay/return`,
    name: `TUC${quote.amount}`,
    money,
  };
  params.sign = epaySign(params, optionText("EpayKey"));
  params.sign_type = "MD5";
  return { data: params, url: `${optionText("PayAddress")}/submit.php` };
}

/** The user's own orders, newest first (the wallet's records). */
export async function recentTopUps(userId: number, limit = 10): Promise<TopUpRow[]> {
  return db.select().from(t.top_ups).where(eq(t.top_ups.user_id, userId)).orderBy(desc(t.top_ups.id)).limit(limit);
}

export async function findUserTopUp(userId: number, tradeNo: string): Promise<TopUpRow | undefined> {
  const [row] = await db
    .select()
    .from(t.top_ups)
    .where(and(eq(t.top_ups.user_id, userId), eq(t.top_ups.trade_no, tradeNo)))
    .limit(1);
  return row;
}
