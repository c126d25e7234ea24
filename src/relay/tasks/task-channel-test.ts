// The channel test of the drawing and music kinds (Midjourney Proxy 2, Midjourney Proxy Plus 5,
// Suno 36), which have no chat to test with and must not be tested by a paid generation: the
// same read the poller makes, for no task at all, with the channel's credentials. It proves that
// the address answers, speaks the kind's format and accepts the key (a wrong mj-api-secret or
// Bearer key is refused by the upstream), and costs nothing.
import { ChannelType } from "../../services/channels/channel-types.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { sendOnce, type PlainAnswer } from "../upstream/send-once.ts";
import { scrubMessage } from "../upstream/upstream-failure.ts";
import { mjRequest } from "./midjourney/mj-upstream.ts";
import { parseSunoAnswer, sunoRequest } from "./suno/suno-upstream.ts";

export type TaskProbe = { ok: true } | { ok: false; message: string };

/** What the upstream said, for the admin: its status and its own words, without secrets. */
function refusal(answer: PlainAnswer, channel: ChannelSnapshot): TaskProbe {
  if (answer.status === 0) return { ok: false, message: answer.failure ?? "network error" };
  let words = answer.text.trim();
  try {
    const parsed = JSON.parse(words) as Record<string, unknown>;
    const said = parsed.description ?? parsed.message ?? parsed.error;
    if (typeof said === "string" && said) words = said;
  } catch {
    // Not JSON: the text itself (an HTML error page, a proxy's plain text) is shown, shortened.
  }
  return { ok: false, message: `status ${answer.status}: ${scrubMessage(words, channel.target).slice(0, 300)}` };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Tests a drawing or music channel; undefined for every other kind. */
export async function probeTaskChannel(channel: ChannelSnapshot, timeoutMs: number): Promise<TaskProbe | undefined> {
  if (channel.type === ChannelType.midjourney || channel.type === ChannelType.midjourneyPlus) {
    const answer = await sendOnce(mjRequest(channel.target, "/mj/task/list-by-condition", { ids: [] }), channel.target, timeoutMs);
    // midjourney-proxy answers the list of the asked tasks: an empty array here.
    return answer.status === 200 && Array.isArray(parseJson(answer.text)) ? { ok: true } : refusal(answer, channel);
  }
  if (channel.type === ChannelType.suno) {
    const answer = await sendOnce(sunoRequest(channel.target, "/suno/fetch", { ids: [], action: "" }), channel.target, timeoutMs);
    const parsed = answer.status === 200 ? parseSunoAnswer(answer.text) : undefined;
    return parsed?.code === "success" ? { ok: true } : refusal(answer, channel);
  }
  return undefined;
}
