// The checks every drawing or music submission passes before it costs anything, and the channel
// it goes to: the user's model rate limit, the token's own limits (requests per minute, in
// flight, tokens per minute: as on /v1) and the balance before the body is read; then the token may
// use the action's model, and the prompt's sensitive words; then a channel of the caller's group
// for that model (or the pinned one), or, for a follow-up action, the channel that ran the
// original task.
import { AppError } from "../../errors/app-error.ts";
import { channelIndex, currentChannelIndex } from "../caches/channel-cache.ts";
import { ChannelStatus, type ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { enforceModelRateLimit, modelRateLimitEnabled } from "../guards/model-rate-limit.ts";
import { admitTokenRequest, reserveTaskMinute } from "../guards/token-rate-limits.ts";
import { beginFlight, type Flight } from "../in-flight.ts";
import { refuseSensitiveWords } from "../guards/sensitive-words.ts";
import { refuseEmptyBalance } from "../../services/billing/quota-holds.ts";
import { authorizeModel, selectFirstChannel } from "../pipeline/relay-pipeline.ts";
import { serverStoppingMessage } from "../pipeline/relay-errors.ts";
import type { PlainAnswer } from "../upstream/send-once.ts";
import type { RelayCaller } from "../relay-context.ts";

/**
 * Before the body is read (it may be up to MAX_REQUEST_BODY_MB): the user's model rate limit, the
 * token's limits, and a balance left to pay with. The token's slot and minute are given back by
 * `scope.flight.end()`, which the submission calls however it ends.
 */
export async function admitBeforeBody(caller: RelayCaller, scope: SubmissionScope): Promise<void> {
  if (modelRateLimitEnabled()) await enforceModelRateLimit(caller.userId);
  if (caller.limits) {
    await admitTokenRequest(caller, scope.flight);
    await reserveTaskMinute(caller, scope.requestId, scope.flight);
  }
  await refuseEmptyBalance(caller.userId);
}

/**
 * What ends with a submission (the token's slot, its place in the minute): a Flight in the relay's
 * set, so a stopping server refuses new submissions (`beginSubmission` gives undefined) and waits
 * for those in progress through its grace period. Past it, the cut aborts the upstream call still
 * waiting (`cut`), and the submission gives its hold back and answers 503 (`refuseIfCut`).
 */
export type SubmissionScope = { requestId: string; flight: Flight; cut: AbortSignal };

export function beginSubmission(requestId: string): SubmissionScope | undefined {
  const flight = beginFlight();
  if (!flight) return undefined;
  const cut = new AbortController();
  flight.onCut(async () => cut.abort());
  return { requestId, flight, cut: cut.signal };
}

/** The refusal of a submission that came while the server stops. */
export const serverStopping = () => new AppError("unavailable", serverStoppingMessage);

/** An upstream call that failed because the stopping server cut it is the server's 503, not the upstream's fault. */
export function refuseIfCut(scope: SubmissionScope, answer: PlainAnswer): void {
  if (answer.status === 0 && scope.cut.aborted) throw serverStopping();
}

/** Once the body is read: the token may use the action's model, and the prompts' sensitive words. */
export function admitTask(caller: RelayCaller, model: string, prompts: string[]): void {
  authorizeModel(caller, model);
  refuseSensitiveWords(prompts.filter((prompt) => prompt !== ""));
}

/** The channel of a new task, or of a follow-up: the original task's channel, which must still be enabled. */
export async function taskChannel(caller: RelayCaller, model: string, originChannelId?: number): Promise<ChannelSnapshot> {
  if (originChannelId === undefined) return (await selectFirstChannel(caller, model)).first;
  const index = currentChannelIndex() ?? (await channelIndex());
  const channel = index.byId.get(originChannelId);
  if (!channel || channel.status !== ChannelStatus.enabled) throw new AppError("unavailable", "原任务所在的渠道不可用");
  return channel;
}

/** A channel by id for reading a task's upstream state (enabled or not: its tasks still finish). */
export async function channelOfTask(channelId: number): Promise<ChannelSnapshot | undefined> {
  const index = currentChannelIndex() ?? (await channelIndex());
  return index.byId.get(channelId);
}
