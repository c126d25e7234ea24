// How the poller asks midjourney-proxy about drawing tasks: list-by-condition with the ids, the
// task's key as mj-api-secret; the answer is the list of those tasks (task-poller.ts runs the
// loop). Reports without an id are ignored.
import { logger } from "../../../logger.ts";
import { drawings, type DrawingRow, type UpstreamDrawing } from "../../../services/tasks/drawing-tasks.ts";
import { afterDrawingChange } from "../../../services/tasks/task-events.ts";
import { refundTask } from "../../../services/tasks/task-refund.ts";
import type { ChannelSnapshot } from "../../channels/channel-snapshot.ts";
import type { UpstreamTarget } from "../../providers/adaptor.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { pollAnswerLimitBytes, pollTimeoutMs, type PollAnswer, type TaskFollower } from "../task-poller.ts";
import { mjRequest } from "./mj-upstream.ts";

async function askMidjourney(channel: ChannelSnapshot, target: UpstreamTarget, ids: string[]): Promise<PollAnswer<UpstreamDrawing>> {
  const request = mjRequest(target, "/mj/task/list-by-condition", { ids });
  const answer = await sendOnce(request, target, pollTimeoutMs, undefined, pollAnswerLimitBytes);
  if (answer.tooLarge) return "too-large";
  const reports = new Map<string, UpstreamDrawing>();
  if (answer.status !== 200) {
    logger.warn("drawing poll failed", { channel: channel.id, status: answer.status, failure: answer.failure });
    return reports;
  }
  try {
    const parsed = JSON.parse(answer.text) as unknown;
    if (Array.isArray(parsed)) {
      for (const item of parsed as UpstreamDrawing[]) {
        if (item && typeof item === "object" && (typeof item.id === "string" || typeof item.id === "number"))
          reports.set(String(item.id), item);
      }
    }
  } catch {
    logger.warn("drawing poll answer unreadable", { channel: channel.id });
  }
  return reports;
}

export const drawingFollower: TaskFollower<DrawingRow, UpstreamDrawing> = {
  tasks: drawings,
  scanLimit: 1000,
  ask: askMidjourney,
  afterChange: afterDrawingChange,
  refund: (id) => refundTask(drawings, id),
};
