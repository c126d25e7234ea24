// The two mails the accounts area sends: a verification code and a password-reset link. Written
// in the language of the person who asked, with the site's name.
import { translator } from "../../i18n/i18n.ts";
import type { Language } from "../../i18n/languages.ts";
import { sendMail } from "../notify/mailer.ts";
import { optionText } from "../options/options.ts";

const escapeHtml = (text: string) => Bun.escapeHTML(text);

export async function mailVerificationCode(to: string, code: string, minutes: number, language: Language): Promise<void> {
  const t = translator(language);
  const system = optionText("SystemName");
  const greeting = t("您好，你正在进行{{system}}邮箱验证。", { system });
  const codeLabel = t("您的验证码为：");
  const validity = t("验证码 {{minutes}} 分钟内有效，如果不是本人操作，请忽略。", { minutes });
  await sendMail({
    to,
    subject: t("{{system}}邮箱验证邮件", { system }),
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(codeLabel)}<strong>${escapeHtml(code)}</strong></p><p>${escapeHtml(validity)}</p>`,
  });
}

export async function mailResetLink(to: string, link: string, minutes: number, language: Language): Promise<void> {
  const t = translator(language);
  const system = optionText("SystemName");
  const greeting = t("您好，你正在进行{{system}}密码重置。", { system });
  const instruction = t("点击下面的链接进行密码重置：");
  const validity = t("重置链接 {{minutes}} 分钟内有效，如果不是本人操作，请忽略。", { minutes });
  const safeLink = escapeHtml(link);
  await sendMail({
    to,
    subject: t("{{system}}密码重置", { system }),
    html: `<p>${escapeHtml(greeting)}</p><p>${escapeHtml(instruction)}<br><a href="${safeLink}">${safeLink}</a></p><p>${escapeHtml(validity)}</p>`,
  });
}
