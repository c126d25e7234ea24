// Forwarding an admitted call: one attempt after another on the channels of the call's group
// and model, stepping down the priority tiers on retries (routing/select-channel.ts), until one
// answers (then its answer is sent and settled) or the failures say to stop.
import { AppError } from "../../errors/app-error.ts";
import type { Translate } from "../../i18n/i18n.ts";
import { countUpstreamFailure } from "../../metrics/metrics.ts";
import { channelIndex } from "../caches/channel-cache.ts";
import { judgeChannelFailure } from "../channels/channel-health.ts";
import { candidatesFor } from "../channels/channel-index.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { judgeKeyFailure } from "../channels/key-health.ts";
import { type KeySlot, pickKey } from "../channels/key-pool.ts";
import type { RelayContext } from "../relay-context.ts";
import { isRetryable } from "../routing/failure-rules.ts";
import { selectChannel } from "../routing/select-channel.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";
import { attemptChannel, attemptLimit } from "./attempt-channel.ts";
import type { RelayTimeouts } from "./attempt-types.ts";
import { UpstreamCallError } from "./relay-errors.ts";
import { answerWhole } from "./respond-json.ts";
import { streamToClient } from "./respond-stream.ts";

export type Route = { first: ChannelSnapshot; pinned: boolean };

async function nextChannel(context: RelayContext, attempt: number, tried: ReadonlySet<number>): Promise<ChannelSnapshot | undefined> {
  const index = await channelIndex();
  return selectChannel(candidatesFor(index, context.caller.group, context.call.model), attempt, tried);
}

/**
 * Attempts, one channel at a time. A multi-key channel uses one of its keys per attempt (in turn
 * or at random, key-pool.ts); a failure that is the key's own (a dead key, or its rate limit)
 * hands the call to the channel's next untried key at once, without spending a retry, and the
 * channel counts as tried only once every enabled key was.
 */
export async function forwardCall(context: RelayContext, route: Route, timeouts: RelayTimeouts, translate: Translate): Promise<Response> {
  const tried = new Set<number>();
  let keysTried: Map<number, Set<number>> | undefined;
  const attempts = attemptLimit(route.pinned);
  let failure: UpstreamFailure | undefined;
  let attempt = 0;
  let channel: ChannelSnapshot | undefined = route.first;
  while (channel) {
    const pool = channel.keyPool;
    let slot: KeySlot | undefined;
    if (pool) {
      keysTried ??= new Map();
      const used = keysTried.get(channel.id) ?? new Set<number>();
      keysTried.set(channel.id, used);
      slot = pickKey(pool, used);
      if (slot) used.add(slot.index);
      if (used.size >= pool.slots.length) tried.add(channel.id);
    } else tried.add(channel.id);
    if (!pool || slot) {
      context.channelChain.push(channel.id);
      const outcome = await attemptChannel(context, channel, timeouts, slot?.target);
      if (outcome.ok) {
        return outcome.kind === "json"
          ? await answerWhole(context, channel, outcome.call, outcome.converted, timeouts.streamIdleMs)
          : streamToClient(context, channel, outcome.call, outcome.stream, translate, timeouts.streamIdleMs);
      }
      failure = outcome.failure;
      countUpstreamFailure(failure, channel.id);
      if (!slot) await judgeChannelFailure(channel, failure);
      else if ((await judgeKeyFailure(channel, slot.index, failure)) && !tried.has(channel.id)) continue;
      if (!isRetryable(failure)) break;
    }
    channel = ++attempt < attempts ? await nextChannel(context, attempt, tried) : undefined;
  }
  if (!failure)
    throw new AppError("unavailable", "当前分组 {{group}} 下对于模型 {{model}} 无可用渠道", {
      group: context.caller.group,
      model: context.call.model,
    });
  throw new UpstreamCallError(failure);
}
