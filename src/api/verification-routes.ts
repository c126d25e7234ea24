// Email codes and password resets (spec §7 Users and sessions): GET /api/verification,
// GET /api/reset_password, POST /api/user/reset. All behind the critical rate limit.
import { Elysia } from "elysia";
import { guardCritical, guardHuman } from "../http/critical-guard.ts";
import { requestLanguage } from "../http/request-language.ts";
import { isSecureRequest } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { sendEmailCode } from "../services/users/email-verification.ts";
import { resetPassword, sendResetLink } from "../services/users/password-reset.ts";
import { ok } from "./envelope.ts";

/** This site's address as the client reached it, for links in mails when ServerAddress is empty. */
function siteOrigin(request: Request, trustProxy: boolean): string {
  const url = new URL(request.url);
  return `${isSecureRequest(request, trustProxy) ? "https:" : url.protocol}//${url.host}`;
}

export const verificationRoutes = ({ config }: WebDeps) =>
  new Elysia({ prefix: "/api" })
    .get("/verification", async ({ request, server, query }) => {
      await guardHuman(config, { request, server }, query.turnstile);
      await sendEmailCode(query.email, requestLanguage(request));
      return ok(undefined, "验证码发送成功，请检查你的邮箱！");
    })
    .get("/reset_password", async ({ request, server, query }) => {
      await guardHuman(config, { request, server }, query.turnstile);
      await sendResetLink(query.email, siteOrigin(request, config.trustProxy), requestLanguage(request));
      return ok(undefined, "重置邮件发送成功，请检查邮箱！");
    })
    .post("/user/reset", async ({ request, server, body }) => {
      await guardCritical(config, { request, server });
      return ok(await resetPassword(body));
    });
