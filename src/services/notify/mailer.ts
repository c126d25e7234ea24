// Sends email through the SMTP server in the options (nodemailer). Used by verification codes,
// password resets and quota alerts. The SMTP password never appears in errors or logs.
import { AppError } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { optionBool, optionNumber, optionText } from "../options/options.ts";

export type Mail = { to: string; subject: string; html: string };

export function smtpConfigured(): boolean {
  return optionText("SMTPServer").trim() !== "";
}

export async function sendMail(mail: Mail): Promise<void> {
  if (!smtpConfigured()) throw new AppError("unavailable", "SMTP 服务器未配置");
  const account = optionText("SMTPAccount");
  const port = optionNumber("SMTPPort");
  // Loaded on first use: most processes never send mail, and it costs start-up time.
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: optionText("SMTPServer"),
    port,
    // Port 465 speaks TLS from the first byte; others upgrade with STARTTLS when offered.
    secure: optionBool("SMTPSSLEnabled") || port === 465,
    auth: account ? { user: account, pass: optionText("SMTPToken") } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  try {
    await transport.sendMail({
      from: optionText("SMTPFrom") || account,
      to: mail.to,
      subject: mail.subject,
      html: mail.html,
    });
  } catch (error) {
    logger.warn("email not sent", { reason: error instanceof Error ? error.message : String(error), to: mail.to });
    throw new AppError("unavailable", "邮件发送失败，请检查邮件服务器配置", undefined, { cause: error });
  } finally {
    transport.close();
  }
}
