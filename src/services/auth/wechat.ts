// WeChat sign-in through the operator's WeChat server (WeChatServerAddress + WeChatServerToken):
// the person follows the official account, gets a code valid for three minutes, types it in,
// and the server tells us whose code it is. A code opens one sign-in or bind only.
import { shared } from "../../cache/open-shared-state.ts";
import { AppError, invalid } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { optionText } from "../options/options.ts";
import { sha256Hex } from "../users/random-codes.ts";
import type { SocialIdentity } from "./social-accounts.ts";

const codeSeconds = 180;
const wrongCode = "验证码错误或已过期";

export async function wechatIdentity(code: string | undefined): Promise<SocialIdentity> {
  const trimmed = (code ?? "").trim();
  if (trimmed === "") throw invalid("无效的参数");
  const url = `${optionText("WeChatServerAddress")}/api/wechat/user?code=${encodeURIComponent(trimmed)}`;
  let body: { success?: unknown; data?: unknown; message?: unknown };
  try {
    const response = await fetch(url, { headers: { authorization: optionText("WeChatServerToken") }, signal: AbortSignal.timeout(10_000) });
    body = (await response.json()) as typeof body;
  } catch (error) {
    logger.warn("wechat server unreachable", { reason: error instanceof Error ? error.message : String(error) });
    throw new AppError("unavailable", "无法连接至微信服务器，请稍后重试！");
  }
  if (body.success !== true || typeof body.data !== "string" || body.data === "") throw invalid(wrongCode);
  // The WeChat server may answer for the same code until it expires; we accept it once.
  const first = await shared.setIfAbsent(`wechat-code:${sha256Hex(trimmed)}`, "1", codeSeconds);
  if (!first) throw invalid(wrongCode);
  return { provider: "wechat", id: body.data };
}
