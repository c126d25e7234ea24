// Following unfinished drawing tasks (one instance at a time, see jobs/task-polling.ts): per
// channel, batches of upstream ids go to midjourney-proxy's list-by-condition with the channel's
// key; what each task reports is applied (never backwards). A task without an upstream id, whose
// channel is gone, or still unfinished past the timeout ends as FAILURE; every failure is
// refunded once (task-events.ts).
import { nowMs } from "../../../clock.ts";
import { logger } from "../../../logger.ts";
import {
  applyDrawingReport,
  failDrawing,
  unfinishedDrawings,
  unrefundedDrawingFailures,
  type DrawingRow,
  type UpstreamDrawing,
} from "../../../services/tasks/drawing-store.ts";
import { afterDrawingChange } from "../../../services/tasks/task-events.ts";
import { refundDrawing } from "../../../services/tasks/task-refund.ts";
import { channelGoneReason, isFinished, noTaskIdReason, timeoutReason } from "../../../services/tasks/task-states.ts";
import type { ChannelSnapshot } from "../../channels/channel-snapshot.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { channelOfTask } from "../task-routing.ts";
import { mjRequest } from "./mj-upstream.ts";

const scanLimit = 1000;
const batchSize = 100;
const pollTimeoutMs = 15_000;

async function reportsOf(channel: ChannelSnapshot, ids: string[]): Promise<Map<string, UpstreamDrawing>> {
  const answer = await sendOnce(mjRequest(channel.target, "/mj/task/list-by-condition", { ids }), channel.target, pollTimeoutMs);
  const reports = new Map<string, UpstreamDrawing>();
  if (answer.status !== 200) {
    logger.warn("drawing poll failed", { channel: channel.id, status: answer.status, failure: answer.failure });
    return reports;
  }
  try {
    const parsed = JSON.parse(answer.text) as unknown;
    if (Array.isArray(parsed)) {
      for (const item of parsed as UpstreamDrawing[]) {
        if (item && typeof item === "object" && (typeof item.id === "string" || typeof item.id === "number")) reports.set(String(item.id), item);
      }
    }
  } catch {
    logger.warn("drawing poll answer unreadable", { channel: channel.id });
  }
  return reports;
}

async function changed(updated: DrawingRow | undefined, latest: Map<number, DrawingRow>): Promise<void> {
  if (!updated) return;
  latest.set(updated.id, updated);
  await afterDrawingChange(updated);
}

async function pollChannel(channelId: number, rows: DrawingRow[], latest: Map<number, DrawingRow>): Promise<void> {
  const channel = await channelOfTask(channelId);
  if (!channel) {
    for (const row of rows) await changed(await failDrawing(row, channelGoneReason), latest);
    return;
  }
  for (const row of rows.filter((row) => !row.mj_id)) await changed(await failDrawing(row, noTaskIdReason), latest);
  const withIds = rows.filter((row) => row.mj_id);
  const ids = [...new Set(withIds.map((row) => row.mj_id))];
  for (let start = 0; start < ids.length; start += batchSize) {
    const reports = await reportsOf(channel, ids.slice(start, start + batchSize));
    for (const row of withIds) {
      const report = reports.get(row.mj_id);
      if (report) await changed(await applyDrawingReport(row, report), latest);
    }
  }
}

export async function pollDrawings(timeoutSeconds: number): Promise<void> {
  const rows = await unfinishedDrawings(scanLimit);
  const latest = new Map(rows.map((row) => [row.id, row]));
  const byChannel = new Map<number, DrawingRow[]>();
  for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
  for (const [channelId, list] of byChannel) await pollChannel(channelId, list, latest);
  // Only after the upstream had its say: a task that finished just now is not failed for its age.
  const deadline = nowMs() - timeoutSeconds * 1000;
  for (const row of latest.values()) {
    if (!isFinished(row.status) && row.submit_time < deadline) await changed(await failDrawing(row, timeoutReason(timeoutSeconds)), latest);
  }
  // Failures whose refund did not happen (the process stopped in between) are refunded now.
  for (const row of await unrefundedDrawingFailures(100)) await refundDrawing(row.id);
}
