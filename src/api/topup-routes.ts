// Money in: redeeming a code, quoting and starting an Epay payment, and the
// provider's notification and browser return. The notification answers Epay's plain-text
// "success" / "fail"; the return only shows the order, it never credits.
import { Elysia } from "elysia";
import { isAppError } from "../errors/app-error.ts";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { requestTranslator } from "../http/request-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { redeemCode } from "../services/redemptions/redeem-code.ts";
import type { EpayParams } from "../services/topup/epay-signature.ts";
import { handleEpayNotify, verifiedReturnTradeNo } from "../services/topup/epay-notify.ts";
import { createEpayOrder, quotePayment } from "../services/topup/topup-orders.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

/** Epay parameters from the query and, for POST notifications, the form body. */
function epayParams(query: Record<string, unknown>, body: unknown): EpayParams {
  const merged: EpayParams = {};
  const source = { ...query, ...(body && typeof body === "object" ? (body as Record<string, unknown>) : {}) };
  for (const [name, value] of Object.entries(source)) if (typeof value === "string") merged[name] = value;
  return merged;
}

/**
 * new-api's payment clients read the failure text from `data` ("错误：{data}"; docs/COMPATIBILITY.md, Response shapes), so these
 * two endpoints put the message in both places.
 */
async function paymentEnvelope<T>(request: Request, action: () => T | Promise<T>, extra: (value: T) => object = () => ({})) {
  try {
    const value = await action();
    return { ...ok(value, "success"), ...extra(value) };
  } catch (error) {
    if (!isAppError(error)) throw error;
    const message = requestTranslator(request)(error.messageKey, error.params);
    return { success: false, message, data: message };
  }
}

const plainText = (text: string) => new Response(text, { headers: { "content-type": "text/plain; charset=utf-8" } });

export const topUpRoutes = ({ config, auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .post(
      "/topup",
      async ({ caller, body, request, server }) => {
        // Codes are 122 random bits, and every attempt still counts against the address.
        await enforceRateLimit("redeem", clientAddress(request, server, config.trustProxy), config.criticalRateLimit);
        return ok(await redeemCode(caller.user, body));
      },
      { role: Role.common },
    )
    .post("/amount", ({ caller, body, request }) => paymentEnvelope(request, () => quotePayment(caller.user, body)), { role: Role.common })
    .post(
      "/pay",
      ({ caller, body, request }) =>
        paymentEnvelope(
          request,
          () => createEpayOrder(caller.user, body),
          (form) => ({ data: form.data, url: form.url }),
        ),
      { role: Role.common },
    )
    .get("/epay/notify", async ({ query }) => plainText(await handleEpayNotify(epayParams(query, undefined))))
    .post("/epay/notify", async ({ query, body }) => plainText(await handleEpayNotify(epayParams(query, body))))
    .get("/epay/return", ({ query }) => {
      const tradeNo = verifiedReturnTradeNo(epayParams(query, undefined));
      return Response.redirect(tradeNo ? `/topup?trade_no=${encodeURIComponent(tradeNo)}` : "/topup", 302);
    });
