// The midjourney-proxy wire format (pure): requests carry the channel's key as mj-api-secret
// (never the client's token), the body the client sent with the site's rules applied, and a
// submission answers {code, description, result, properties} where code 1 means submitted,
// 21 that the task exists already or waits (for a window, on Plus), 22 that it was accepted into
// the proxy's queue ("排队中" in midjourney-proxy's published API reference: the task has an id
// and will run), and anything else that nothing was submitted. 1 and 22 are real tasks and are
// charged; 21 is not (its modal is charged when it comes).
import type { UpstreamRequest, UpstreamTarget } from "../../providers/adaptor.ts";

export const SubmitCode = { submitted: 1, noAccount: 3, existsOrWaiting: 21, inQueue: 22 } as const;

export function mjRequest(target: UpstreamTarget, path: string, body?: unknown): UpstreamRequest {
  return {
    url: `${target.baseUrl}${path}`,
    method: body === undefined ? "GET" : "POST",
    headers: { "mj-api-secret": target.key, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  };
}

export type BodyRules = {
  /** MjAccountFilterEnabled: the client may choose upstream accounts. */
  accountFilter: boolean;
  /** MjModeClearEnabled: the client may not choose the speed mode in the prompt. */
  modeClear: boolean;
  /** Where the upstream reports progress (our /mj/notify), when callbacks are on. */
  notifyUrl?: string;
};

/** The body sent upstream: the client's own hook never reaches the upstream (ours does, or none). */
export function upstreamBody(body: Record<string, unknown>, rules: BodyRules): Record<string, unknown> {
  const sent: Record<string, unknown> = { ...body };
  if (!rules.accountFilter) delete sent.accountFilter;
  delete sent.notifyHook;
  if (rules.notifyUrl) sent.notifyHook = rules.notifyUrl;
  if (rules.modeClear && typeof sent.prompt === "string") sent.prompt = sent.prompt.replace(/\s*--(fast|relax|turbo)\b/g, "").trim();
  return sent;
}

export type SubmitAnswer = { code: number; description: string; result: unknown; properties: Record<string, unknown> };

export function parseSubmitAnswer(text: string): SubmitAnswer | undefined {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (!parsed || typeof parsed !== "object" || typeof parsed.code !== "number") return undefined;
    const properties = parsed.properties && typeof parsed.properties === "object" ? (parsed.properties as Record<string, unknown>) : {};
    return {
      code: parsed.code,
      description: typeof parsed.description === "string" ? parsed.description : "",
      result: parsed.result,
      properties,
    };
  } catch {
    return undefined;
  }
}

/** The upstream's task id in a submission answer ("" when it gave none). */
export function submittedTaskId(answer: SubmitAnswer): string {
  return typeof answer.result === "string" || typeof answer.result === "number" ? String(answer.result) : "";
}

/**
 * The signature in our callback URL: an HMAC of the channel id keyed by the channel's secret,
 * which only we and that upstream know. A callback without it changes nothing.
 */
export function notifySignature(channelKey: string, channelId: number): string {
  return new Bun.CryptoHasher("sha256", channelKey).update(`mj-notify:${channelId}`).digest("hex").slice(0, 40);
}
