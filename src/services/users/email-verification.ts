// Email codes (GET /api/verification sends one; registration with
// EmailVerificationEnabled and GET /api/oauth/email/bind use it up). A code is valid three
// minutes, bound to the address, single-use, and dies after five wrong tries; an address gets
// at most one mail per 30 seconds, matching the console's countdown.
import { shared } from "../../cache/open-shared-state.ts";
import { AppError, invalid } from "../../errors/app-error.ts";
import type { Language } from "../../i18n/languages.ts";
import { consumeCode, issueCode } from "../verifications/verification-codes.ts";
import { mailVerificationCode } from "./account-mails.ts";
import { acceptableEmail } from "./email-rules.ts";
import { randomDigits } from "./random-codes.ts";
import { emailTaken } from "./user-queries.ts";
import type { UserRow } from "./user-view.ts";
import { updateLiveUser } from "./user-writes.ts";

const emailCodeSeconds = 180;
const mailResendSeconds = 30;

/**
 * Refuses a second mail of one kind to one address within the resend countdown. A window of one,
 * not a once-mark: while Redis is away it counts per instance instead of refusing every mail.
 */
export async function throttleMail(kind: string, email: string): Promise<void> {
  const verdict = await shared.hitWindow(`mail:${kind}:${email}`, 1, mailResendSeconds);
  if (!verdict.allowed) throw new AppError("rate_limited", "请求过于频繁，请 {{seconds}} 秒后再试", { seconds: mailResendSeconds });
}

export async function sendEmailCode(rawEmail: unknown, language: Language): Promise<void> {
  const email = acceptableEmail(rawEmail);
  if (await emailTaken(email)) throw invalid("邮箱地址已被占用");
  await throttleMail("code", email);
  // Six digits are easy to type; five wrong tries end a code, so guessing stays hopeless.
  const code = await issueCode("email_verification", email, { ttlSeconds: emailCodeSeconds, code: randomDigits(6) });
  await mailVerificationCode(email, code, emailCodeSeconds / 60, language);
}

/** GET /api/oauth/email/bind: sets the signed-in user's address after a mailed code. */
export async function bindEmail(user: UserRow, rawEmail: unknown, rawCode: unknown): Promise<UserRow> {
  if (typeof rawEmail !== "string" || rawEmail.trim() === "") throw invalid("请输入邮箱！");
  if (typeof rawCode !== "string" || rawCode.trim() === "") throw invalid("请输入邮箱验证码！");
  const email = acceptableEmail(rawEmail);
  if (email !== user.email && (await emailTaken(email))) throw invalid("邮箱地址已被占用");
  if (!(await consumeCode("email_verification", email, rawCode))) throw invalid("验证码错误或已过期");
  return updateLiveUser(user.id, { email }, "邮箱地址已被占用");
}
