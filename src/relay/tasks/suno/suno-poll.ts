// Following unfinished Suno tasks (one instance at a time, see jobs/task-polling.ts): per channel,
// batches of task ids go to the upstream's /suno/fetch with the channel's key; reports are
// applied (never backwards); a task whose channel is gone or that stays unfinished past the
// timeout fails; every failure is refunded once (task-events.ts).
import { nowSeconds } from "../../../clock.ts";
import { logger } from "../../../logger.ts";
import {
  applyAsyncTaskReport,
  failAsyncTask,
  unfinishedAsyncTasks,
  unrefundedAsyncTaskFailures,
  type AsyncTaskRow,
  type UpstreamTask,
} from "../../../services/tasks/async-task-store.ts";
import { afterAsyncTaskChange } from "../../../services/tasks/task-events.ts";
import { refundAsyncTask } from "../../../services/tasks/task-refund.ts";
import { channelGoneReason, isFinished, noTaskIdReason, timeoutReason } from "../../../services/tasks/task-states.ts";
import type { ChannelSnapshot } from "../../channels/channel-snapshot.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { channelOfTask } from "../task-routing.ts";
import { sunoPlatform } from "./suno-submit.ts";
import { parseSunoAnswer, sunoRequest } from "./suno-upstream.ts";

const scanLimit = 500;
const batchSize = 100;
const pollTimeoutMs = 15_000;

async function reportsOf(channel: ChannelSnapshot, ids: string[]): Promise<Map<string, UpstreamTask>> {
  const answer = await sendOnce(sunoRequest(channel.target, "/suno/fetch", { ids, action: "" }), channel.target, pollTimeoutMs);
  const parsed = answer.status === 200 ? parseSunoAnswer(answer.text) : undefined;
  const reports = new Map<string, UpstreamTask>();
  if (!parsed || parsed.code !== "success" || !Array.isArray(parsed.data)) {
    logger.warn("music poll failed", { channel: channel.id, status: answer.status, failure: answer.failure });
    return reports;
  }
  for (const item of parsed.data as UpstreamTask[]) {
    if (item && typeof item === "object" && typeof item.task_id === "string") reports.set(item.task_id, item);
  }
  return reports;
}

async function changed(updated: AsyncTaskRow | undefined, latest: Map<number, AsyncTaskRow>): Promise<void> {
  if (!updated) return;
  latest.set(updated.id, updated);
  await afterAsyncTaskChange(updated);
}

async function pollChannel(channelId: number, rows: AsyncTaskRow[], latest: Map<number, AsyncTaskRow>): Promise<void> {
  const channel = await channelOfTask(channelId);
  if (!channel) {
    for (const row of rows) await changed(await failAsyncTask(row, channelGoneReason), latest);
    return;
  }
  for (const row of rows.filter((row) => !row.task_id)) await changed(await failAsyncTask(row, noTaskIdReason), latest);
  const withIds = rows.filter((row) => row.task_id);
  const ids = [...new Set(withIds.map((row) => row.task_id))];
  for (let start = 0; start < ids.length; start += batchSize) {
    const reports = await reportsOf(channel, ids.slice(start, start + batchSize));
    for (const row of withIds) {
      const report = reports.get(row.task_id);
      if (report) await changed(await applyAsyncTaskReport(row, report), latest);
    }
  }
}

export async function pollSunoTasks(timeoutSeconds: number): Promise<void> {
  const rows = await unfinishedAsyncTasks(sunoPlatform, scanLimit);
  const latest = new Map(rows.map((row) => [row.id, row]));
  const byChannel = new Map<number, AsyncTaskRow[]>();
  for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
  for (const [channelId, list] of byChannel) await pollChannel(channelId, list, latest);
  const deadline = nowSeconds() - timeoutSeconds;
  for (const row of latest.values()) {
    if (!isFinished(row.status) && row.submit_time < deadline) await changed(await failAsyncTask(row, timeoutReason(timeoutSeconds)), latest);
  }
  for (const row of await unrefundedAsyncTaskFailures(100)) await refundAsyncTask(row.id);
}
