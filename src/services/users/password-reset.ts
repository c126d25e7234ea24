// Forgotten passwords (/reset and /user/reset in the console): GET /api/reset_password mails a link to /user/reset
// with the address and a one-time token; POST /api/user/reset with both sets a new random
// password and returns it. The link is single-use and lives ten minutes; using it ends every
// session and the system access token of the account.
import { and, eq, isNull, sql } from "drizzle-orm";
import { invalid } from "../../errors/app-error.ts";
import type { Language } from "../../i18n/languages.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import { optionText } from "../options/options.ts";
import { parseInput, requiredText } from "../parse-input.ts";
import { consumeCode, issueCode } from "../verifications/verification-codes.ts";
import { mailResetLink } from "./account-mails.ts";
import { acceptableEmail, normalizeEmail } from "./email-rules.ts";
import { throttleMail } from "./email-verification.ts";
import { hashPassword } from "./passwords.ts";
import { randomAlphanumeric } from "./random-codes.ts";
import { findLiveUserByEmail } from "./user-queries.ts";
import { z } from "zod";

const resetLinkSeconds = 600;

/** Mails the reset link; `origin` is used when the site address option is empty. */
export async function sendResetLink(rawEmail: unknown, origin: string, language: Language): Promise<void> {
  const email = acceptableEmail(rawEmail);
  if (!(await findLiveUserByEmail(email))) throw invalid("该邮箱地址未注册");
  await throttleMail("reset", email);
  const token = await issueCode("password_reset", email, { ttlSeconds: resetLinkSeconds, length: 32 });
  const base = optionText("ServerAddress") || origin;
  const link = `${base}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
  await mailResetLink(email, link, resetLinkSeconds / 60, language);
}

export const resetInput = z.object({ email: requiredText("无效的参数"), token: requiredText("无效的参数") });

/** Uses the link: returns the new password (shown once, and copied by the console). */
export async function resetPassword(body: unknown): Promise<string> {
  const input = parseInput(resetInput, body);
  const email = normalizeEmail(input.email);
  if (!(await consumeCode("password_reset", email, input.token))) throw invalid("重置链接非法或已过期");
  const password = randomAlphanumeric(12);
  const [user] = await db
    .update(t.users)
    .set({
      password: await hashPassword(password),
      access_token: null,
      session_version: sql`${t.users.session_version} + 1`,
    })
    .where(and(eq(t.users.email, email), isNull(t.users.deleted_at)))
    .returning({ id: t.users.id });
  if (!user) throw invalid("重置链接非法或已过期");
  await announceChange("users", user.id);
  return password;
}
