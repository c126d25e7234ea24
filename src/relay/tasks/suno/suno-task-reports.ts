// How the poller asks a Suno API proxy about music tasks: /suno/fetch with the ids, the channel's
// key as Bearer; the answer's data is the list of those tasks (task-poller.ts runs the loop).
import { logger } from "../../../logger.ts";
import { music, type MusicRow, type UpstreamMusic } from "../../../services/tasks/music-tasks.ts";
import { afterMusicChange } from "../../../services/tasks/task-events.ts";
import { refundTask } from "../../../services/tasks/task-refund.ts";
import type { ChannelSnapshot } from "../../channels/channel-snapshot.ts";
import type { UpstreamTarget } from "../../providers/adaptor.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { pollAnswerLimitBytes, pollTimeoutMs, type PollAnswer, type TaskFollower } from "../task-poller.ts";
import { parseSunoAnswer, sunoRequest } from "./suno-upstream.ts";

async function askSuno(channel: ChannelSnapshot, target: UpstreamTarget, ids: string[]): Promise<PollAnswer<UpstreamMusic>> {
  const request = sunoRequest(target, "/suno/fetch", { ids, action: "" });
  const answer = await sendOnce(request, target, pollTimeoutMs, undefined, pollAnswerLimitBytes);
  if (answer.tooLarge) return "too-large";
  const parsed = answer.status === 200 ? parseSunoAnswer(answer.text) : undefined;
  const reports = new Map<string, UpstreamMusic>();
  if (parsed?.code !== "success" || !Array.isArray(parsed.data)) {
    logger.warn("music poll failed", { channel: channel.id, status: answer.status, failure: answer.failure });
    return reports;
  }
  for (const item of parsed.data as UpstreamMusic[]) {
    if (item && typeof item === "object" && typeof item.task_id === "string") reports.set(item.task_id, item);
  }
  return reports;
}

export const musicFollower: TaskFollower<MusicRow, UpstreamMusic> = {
  tasks: music,
  scanLimit: 500,
  ask: askSuno,
  afterChange: afterMusicChange,
  refund: (id) => refundTask(music, id),
};
