// Following unfinished tasks, drawing or music, one loop for both (one instance at a time, see
// jobs/task-polling.ts). Each kind says how its upstream is asked (midjourney/mj-task-reports.ts,
// suno/suno-task-reports.ts); the loop is the same:
//
//   1. pick    the oldest unfinished tasks, by status (never by progress: an upstream may say 100%
//              and never the end), at most the kind's scan limit;
//   2. ask     per channel and key (a multi-key channel's task with the key that took it), batches
//              of upstream ids; an answer over the byte limit is cut unread and its batch asked
//              again in halves, down to one task;
//   3. apply   each report (never backwards, conditional on the state read);
//   4. end     a task without an upstream id, or whose channel is gone, fails; then every
//              unfinished task past TASK_TIMEOUT fails, polled or not;
//   5. refund  every failure once (task-events.ts), and the failures a crash left unrefunded.
import { logger } from "../../logger.ts";
import { channelGoneReason, noTaskIdReason, timeoutReason } from "../../services/tasks/task-states.ts";
import type { TaskRowBase, TaskStore } from "../../services/tasks/task-store.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { keyTargetOf } from "../channels/key-pool.ts";
import type { UpstreamTarget } from "../providers/adaptor.ts";
import { channelOfTask } from "./task-routing.ts";

/** The most a poll answer may carry (one batch); a longer one is cut and asked for in halves. */
export const pollAnswerLimitBytes = 8 * 1024 * 1024;
/** Every upstream call of a poll has its own timeout. */
export const pollTimeoutMs = 15_000;
const batchSize = 100;
const sweepLimit = 100;
/** At most this many sweeps of overdue tasks per run (sweepLimit each). */
const sweepRounds = 10;

/** What an upstream said of a batch: reports by upstream id, or that its answer was over the limit. */
export type PollAnswer<Report> = Map<string, Report> | "too-large";

export type TaskFollower<Row extends TaskRowBase, Report> = {
  tasks: Pick<
    TaskStore<Row, unknown, Report>,
    "kind" | "clockMs" | "now" | "upstreamIdOf" | "unfinished" | "unfinishedBefore" | "unrefundedFailures" | "applyReport" | "fail"
  >;
  /** How many unfinished tasks one run follows, oldest first. */
  scanLimit: number;
  /** Asks the channel's upstream about these tasks with a key of it (an empty map when it did not answer). */
  ask(channel: ChannelSnapshot, target: UpstreamTarget, ids: string[]): Promise<PollAnswer<Report>>;
  /** Refunds a failure, tells the client (task-events.ts). */
  afterChange(row: Row): Promise<void>;
  /** Refunds a failure a crash left unrefunded. */
  refund(id: number): Promise<unknown>;
};

export async function followTasks<Row extends TaskRowBase, Report>(follower: TaskFollower<Row, Report>, timeoutSeconds: number) {
  const { tasks } = follower;
  const changed = async (updated: Row | undefined) => {
    if (updated) await follower.afterChange(updated);
  };

  /** Asks for a batch; an answer over the limit is asked again in halves, down to one task. */
  const askInParts = async (channel: ChannelSnapshot, target: UpstreamTarget, ids: string[], rows: Row[]): Promise<void> => {
    const answer = await follower.ask(channel, target, ids);
    if (answer === "too-large") {
      if (ids.length === 1) {
        logger.warn("task poll answer over the limit: the task keeps its state", {
          kind: tasks.kind,
          channel: channel.id,
          task: ids[0],
          limitBytes: pollAnswerLimitBytes,
        });
        return;
      }
      const half = Math.ceil(ids.length / 2);
      await askInParts(channel, target, ids.slice(0, half), rows);
      await askInParts(channel, target, ids.slice(half), rows);
      return;
    }
    for (const row of rows) {
      const report = answer.get(tasks.upstreamIdOf(row));
      if (report) await changed(await tasks.applyReport(row, report));
    }
  };

  const followKey = async (channel: ChannelSnapshot, target: UpstreamTarget, withIds: Row[]) => {
    const ids = [...new Set(withIds.map(tasks.upstreamIdOf))];
    for (let start = 0; start < ids.length; start += batchSize) {
      const batch = ids.slice(start, start + batchSize);
      const asked = new Set(batch);
      await askInParts(
        channel,
        target,
        batch,
        withIds.filter((row) => asked.has(tasks.upstreamIdOf(row))),
      );
    }
  };

  const followChannel = async (channelId: number, rows: Row[]) => {
    const channel = await channelOfTask(channelId);
    if (!channel) {
      for (const row of rows) await changed(await tasks.fail(row, channelGoneReason));
      return;
    }
    for (const row of rows.filter((row) => !tasks.upstreamIdOf(row))) await changed(await tasks.fail(row, noTaskIdReason));
    // A multi-key channel's tasks live on the accounts of the keys that took them.
    const byKey = new Map<string, { target: UpstreamTarget; rows: Row[] }>();
    for (const row of rows.filter((row) => tasks.upstreamIdOf(row))) {
      const target = keyTargetOf(channel.keyPool, channel.target, row.key_index);
      const group = byKey.get(target.key);
      if (group) group.rows.push(row);
      else byKey.set(target.key, { target, rows: [row] });
    }
    for (const { target, rows: keyRows } of byKey.values()) await followKey(channel, target, keyRows);
  };

  const byChannel = new Map<number, Row[]>();
  for (const row of await tasks.unfinished(follower.scanLimit)) {
    const list = byChannel.get(row.channel_id);
    if (list) list.push(row);
    else byChannel.set(row.channel_id, [row]);
  }
  for (const [channelId, rows] of byChannel) await followChannel(channelId, rows);

  // Only after the upstream had its say: a task that finished just now is not failed for its age.
  // Read afresh, so what the polls changed is seen, and every unfinished task counts, followed or not.
  const deadline = tasks.now() - Math.floor((timeoutSeconds * 1000) / tasks.clockMs);
  for (let round = 0; round < sweepRounds; round++) {
    const overdue = await tasks.unfinishedBefore(deadline, sweepLimit);
    let ended = 0;
    for (const row of overdue) {
      const updated = await tasks.fail(row, timeoutReason(timeoutSeconds));
      if (updated) ended++;
      await changed(updated);
    }
    // Done, or what is left is being changed by another writer: the next run comes back to it.
    if (overdue.length < sweepLimit || ended === 0) break;
  }
  // Failures whose refund did not happen (the process stopped in between) are refunded now.
  for (const row of await tasks.unrefundedFailures(sweepLimit)) await follower.refund(row.id);
}
