// The health rules of channel-health.ts applied to one key of a multi-key channel: a failure
// that says the key or its account is dead disables that key alone (status 3 with its reason and
// time, under the same AutomaticDisableChannelEnabled and auto_ban switches); the channel is
// disabled only with its last key. A passing test brings an automatically disabled key back
// (AutomaticEnableChannelEnabled), and with it a channel that was disabled for its keys. Every
// change rebuilds the relay's index here and is announced to the other instances, like a
// channel's.
import { logger } from "../../logger.ts";
import { announceChange } from "../../services/change-notices.ts";
import { changeKeyStatus } from "../../services/channels/channel-key-writes.ts";
import { KeyStatus } from "../../services/channels/channel-keys.ts";
import { optionBool } from "../../services/options/options.ts";
import { reloadChannels } from "../caches/channel-cache.ts";
import { deadKeyReason, notifyRoot } from "./channel-health.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

type ChannelRef = { id: number; name: string; autoBan: boolean };

/** Disables one key if the rules allow it; true when this call disabled it. */
export async function disableKeyAutomatically(channel: ChannelRef, keyIndex: number, reason: string): Promise<boolean> {
  if (!optionBool("AutomaticDisableChannelEnabled") || !channel.autoBan) return false;
  const result = await changeKeyStatus(channel.id, {
    keys: [keyIndex],
    status: KeyStatus.autoDisabled,
    reason,
    onlyFrom: KeyStatus.enabled,
    manual: false,
  }).catch((error) => {
    logger.warn("channel key not disabled", { channel: channel.id, key: keyIndex, error: String(error) });
    return undefined;
  });
  if (!result?.changed) return false;
  logger.warn("channel key disabled automatically", { channel: channel.id, key: keyIndex, reason, channelDisabled: result.channelChanged });
  await reloadChannels();
  await announceChange("channels", channel.id);
  notifyRoot(channel, reason, keyIndex + 1).catch(() => undefined);
  if (result.channelChanged) notifyRoot(channel, reason).catch(() => undefined);
  return true;
}

/**
 * After a failed attempt with one key of a multi-key channel: a dead key is disabled. True when
 * the failure is the key's own (dead, or rate-limited), so another key of the channel may serve.
 */
export async function judgeKeyFailure(channel: ChannelRef, keyIndex: number, failure: UpstreamFailure): Promise<boolean> {
  const reason = deadKeyReason(failure);
  if (reason) {
    await disableKeyAutomatically(channel, keyIndex, reason);
    return true;
  }
  return failure.status === 429 || failure.upstreamStatus === 429;
}

/** Re-enables a key the relay disabled, after it passed a test. */
export async function enableKeyAutomatically(channelId: number, keyIndex: number): Promise<boolean> {
  if (!optionBool("AutomaticEnableChannelEnabled")) return false;
  const result = await changeKeyStatus(channelId, {
    keys: [keyIndex],
    status: KeyStatus.enabled,
    onlyFrom: KeyStatus.autoDisabled,
    manual: false,
  });
  if (!result.changed) return false;
  logger.info("channel key enabled automatically", { channel: channelId, key: keyIndex, channelEnabled: result.channelChanged });
  await reloadChannels();
  await announceChange("channels", channelId);
  return true;
}
