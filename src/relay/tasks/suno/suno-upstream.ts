// The Suno API proxies' wire format (pure): Bearer with the channel's key; a submission
// (/suno/submit/music or /lyrics) answers {code: "success", message, data: "<task id>"}; a fetch
// (/suno/fetch {ids}) answers {code: "success", data: [task, ...]}; anything else is an error
// whose code and message say why.
import { AppError } from "../../../errors/app-error.ts";
import type { UpstreamRequest, UpstreamTarget } from "../../providers/adaptor.ts";

export const sunoActions = { music: "MUSIC", lyrics: "LYRICS" } as const;
export type SunoAction = keyof typeof sunoActions;

const defaultMusicModel = "chirp-v3-0";

export function sunoRequest(target: UpstreamTarget, path: string, body: unknown): UpstreamRequest {
  return {
    url: `${target.baseUrl}${path}`,
    method: "POST",
    headers: { authorization: `Bearer ${target.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  };
}

/** The body sent upstream: music gets the default model version; lyrics need a prompt. */
export function sunoBody(action: SunoAction, body: Record<string, unknown>): Record<string, unknown> {
  if (action === "lyrics") {
    if (typeof body.prompt !== "string" || body.prompt.trim() === "")
      throw new AppError("invalid", "缺少 prompt 参数", undefined, { code: "prompt_missing" });
    return { ...body };
  }
  const sent = { ...body };
  if (typeof sent.mv !== "string" || sent.mv.trim() === "") sent.mv = defaultMusicModel;
  return sent;
}

/** The texts of a submission the sensitive-word check reads. */
export function sunoPrompts(body: Record<string, unknown>): string[] {
  return ["prompt", "gpt_description_prompt", "tags", "title"]
    .map((field) => body[field])
    .filter((value): value is string => typeof value === "string");
}

export type SunoAnswer = { code: string; message: string; data: unknown };

export function parseSunoAnswer(text: string): SunoAnswer | undefined {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    if (!parsed || typeof parsed !== "object" || typeof parsed.code !== "string") return undefined;
    return { code: parsed.code, message: typeof parsed.message === "string" ? parsed.message : "", data: parsed.data };
  } catch {
    return undefined;
  }
}
