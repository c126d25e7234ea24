// Email codes and password resets: GET /api/verification,
// GET /api/reset_password (behind the critical rate limit), POST /api/user/reset (behind the
// credential limits).
import { Elysia } from "elysia";
import { guardHuman } from "../http/critical-guard.ts";
import { namedAccount, recordCredentialFailure, refuseLockedAccount } from "../http/credential-guard.ts";
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
    // Checked before the body is read like sign-in (credential-guard.ts); failures count.
    .post("/user/reset", async ({ request, server, body }) => {
      const account = namedAccount(body, "email");
      await refuseLockedAccount("reset", account, config);
      const password = await resetPassword(body).catch(async (error: unknown) => {
        await recordCredentialFailure("reset", { request, server }, account, config);
        throw error;
      });
      return ok(password);
    });
