// The Cloudflare Turnstile human check (login, registration, email codes and reset
// mails need it when TurnstileCheckEnabled). The widget gives the browser a token; only the
// siteverify answer for that token, asked with the secret key, counts.
import { invalid } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { optionBool, optionText } from "../options/options.ts";
import { providerEndpoints } from "./provider-endpoints.ts";

const notReady = "请稍后几秒重试，Turnstile 正在检查用户环境！";
const failed = "Turnstile 校验失败，请刷新重试！";

export async function checkTurnstile(token: string | undefined, clientAddress: string): Promise<void> {
  if (!optionBool("TurnstileCheckEnabled")) return;
  if (!token || token.trim() === "") throw invalid(notReady);
  const form = new URLSearchParams({ secret: optionText("TurnstileSecretKey"), response: token.trim() });
  if (clientAddress && clientAddress !== "unknown") form.set("remoteip", clientAddress);
  let verdict: { success?: unknown; "error-codes"?: unknown };
  try {
    const response = await fetch(providerEndpoints().turnstileVerify, { method: "POST", body: form, signal: AbortSignal.timeout(10_000) });
    verdict = (await response.json()) as typeof verdict;
  } catch (error) {
    logger.warn("turnstile verification unavailable", { reason: error instanceof Error ? error.message : String(error) });
    throw invalid(failed);
  }
  if (verdict.success !== true) throw invalid(failed);
}
