// Notifications to a user's webhook (docs/COMPATIBILITY.md, Notifications): the body is {type, title, content with
// {{value}} placeholders, values, timestamp}; the user's secret goes in `Authorization: Bearer`,
// and an HMAC-SHA256 of the body in X-Webhook-Signature (new-api's header), so a receiver can
// check the message without trusting the transport. The URL is the user's, so it goes through
// the outbound guard (never a private address) with a short timeout.
import { nowSeconds } from "../../clock.ts";
import { fetchOutbound } from "../../http/outbound-url.ts";

export type NotifyMessage = { type: string; title: string; content: string; values: unknown[] };

const webhookTimeoutMs = 5_000;

export async function sendWebhook(url: string, secret: string, message: NotifyMessage): Promise<void> {
  const body = JSON.stringify({ ...message, timestamp: nowSeconds() });
  const headers: Record<string, string> = { "content-type": "application/json", "user-agent": "Switchyard-Webhook" };
  if (secret) {
    headers.authorization = `Bearer ${secret}`;
    headers["x-webhook-signature"] = new Bun.CryptoHasher("sha256", secret).update(body).digest("hex");
  }
  const response = await fetchOutbound(url, { method: "POST", headers, body, timeoutMs: webhookTimeoutMs });
  await response.body?.cancel();
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
}

/** Fills the {{value}} placeholders in order, for channels that show the text itself (email). */
export function fillValues(content: string, values: unknown[], escapeValue: (text: string) => string = (text) => text): string {
  let index = 0;
  return content.replace(/\{\{value\}\}/g, () => escapeValue(String(values[index++] ?? "")));
}
