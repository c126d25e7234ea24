// The checks every drawing or music submission passes before it costs anything, and the channel
// it goes to: the token may use the action's model, the user's model rate limit, the prompt's
// sensitive words; then a channel of the caller's group for that model (or the pinned one), or,
// for a follow-up action, the channel that ran the original task.
import { AppError } from "../../errors/app-error.ts";
import { channelIndex, currentChannelIndex } from "../caches/channel-cache.ts";
import { ChannelStatus, type ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { enforceModelRateLimit, modelRateLimitEnabled } from "../guards/model-rate-limit.ts";
import { refuseSensitiveWords } from "../guards/sensitive-words.ts";
import { authorizeModel, selectFirstChannel } from "../pipeline/relay-pipeline.ts";
import type { RelayCaller } from "../relay-context.ts";

export async function admitTask(caller: RelayCaller, model: string, prompts: string[]): Promise<void> {
  authorizeModel(caller, model);
  if (modelRateLimitEnabled()) await enforceModelRateLimit(caller.userId);
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
