// Which email addresses the site accepts (sign-up and email binding): a well-formed
// address, only whitelisted domains when EmailDomainRestrictionEnabled, and no "+" aliases when
// EmailAliasRestrictionEnabled. Addresses are compared in lower case everywhere.
import { z } from "zod";
import { invalid } from "../../errors/app-error.ts";
import { optionBool, optionText } from "../options/options.ts";

const emailShape = z.email();

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The whitelist option as a clean list: trimmed, lower case, no empty or repeated entries. */
function whitelistedDomains(): string[] {
  const domains = optionText("EmailDomainWhitelist")
    .split(",")
    .map((domain) => domain.trim().toLowerCase())
    .filter((domain) => domain !== "");
  return [...new Set(domains)];
}

/** Checks an address a person typed; returns it normalised or throws the spec's message. */
export function acceptableEmail(raw: unknown): string {
  const email = typeof raw === "string" ? normalizeEmail(raw) : "";
  if (email === "") throw invalid("请输入邮箱！");
  if (email.length > 128 || !emailShape.safeParse(email).success) throw invalid("无效的邮箱地址");
  const at = email.lastIndexOf("@");
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (optionBool("EmailDomainRestrictionEnabled") && !whitelistedDomains().includes(domain)) {
    throw invalid("管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中");
  }
  if (optionBool("EmailAliasRestrictionEnabled") && local.includes("+")) {
    throw invalid("管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。");
  }
  return email;
}
