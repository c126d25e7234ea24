// The channel test of the drawing and music types (Midjourney Proxy 2, Midjourney Proxy Plus 5,
// Suno 36), which have no chat to test with and must not be tested by a paid generation: the
// same read the poller makes, for no task at all, with the channel's credentials. It proves that
// the address answers, speaks the type's format and accepts the key (a wrong mj-api-secret or
// Bearer key is refused by the upstream), and costs nothing. A multi-key channel is tested with
// one key at a time, like a chat channel; the refusal comes back as the relay's failure value so
// the same health rules judge the key (channel-test.ts).
import { ChannelType } from "../../services/channels/channel-types.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { sendOnce, type PlainAnswer } from "../upstream/send-once.ts";
import { scrubMessage, type UpstreamFailure } from "../upstream/upstream-failure.ts";
import type { UpstreamTarget } from "../providers/adaptor.ts";
import { answerFailure } from "./task-keys.ts";
import { mjRequest } from "./midjourney/mj-upstream.ts";
import { parseSunoAnswer, sunoRequest } from "./suno/suno-upstream.ts";

export type TaskProbe = { ok: true } | { ok: false; message: string; failure?: UpstreamFailure };

/** What the upstream said, for the admin: its status and its own words, without secrets. */
function refusal(answer: PlainAnswer, channel: ChannelSnapshot, target: UpstreamTarget): TaskProbe {
  if (answer.status === 0) return { ok: false, message: answer.failure ?? "network error" };
  let words = answer.text.trim();
  try {
    const parsed = JSON.parse(words) as Record<string, unknown>;
    const said = parsed.description ?? parsed.message ?? parsed.error;
    if (typeof said === "string" && said) words = said;
  } catch {
    // Not JSON: the text itself (an HTML error page, a proxy's plain text) is shown, shortened.
  }
  const failure = answerFailure(answer, channel, target);
  return { ok: false, message: `status ${answer.status}: ${scrubMessage(words, target).slice(0, 300)}`, ...(failure ? { failure } : {}) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Tests a drawing or music channel with one of its keys (`target`); undefined for every other type. */
export async function probeTaskChannel(
  channel: ChannelSnapshot,
  target: UpstreamTarget,
  timeoutMs: number,
): Promise<TaskProbe | undefined> {
  if (channel.type === ChannelType.Midjourney || channel.type === ChannelType.MidjourneyPlus) {
    const answer = await sendOnce(mjRequest(target, "/mj/task/list-by-condition", { ids: [] }), target, timeoutMs);
    // midjourney-proxy answers the list of the asked tasks: an empty array here.
    return answer.status === 200 && Array.isArray(parseJson(answer.text)) ? { ok: true } : refusal(answer, channel, target);
  }
  if (channel.type === ChannelType.Suno) {
    const answer = await sendOnce(sunoRequest(target, "/suno/fetch", { ids: [], action: "" }), target, timeoutMs);
    const parsed = answer.status === 200 ? parseSunoAnswer(answer.text) : undefined;
    return parsed?.code === "success" ? { ok: true } : refusal(answer, channel, target);
  }
  return undefined;
}
