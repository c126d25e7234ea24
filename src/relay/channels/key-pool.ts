// The keys of a multi-key channel as the relay holds them: one upstream target per enabled key,
// built with the channel's snapshot (so a request parses nothing), and the choice of a key per
// attempt: in turn (polling) or at random, skipping keys this request already tried. A disabled
// key is not in the pool; the snapshot is rebuilt when one changes. The chat relay and the
// drawing and music tasks choose from the same pool, so they share one turn.
//
// "In turn" is per gateway process, on purpose: each instance hands its own calls to the keys one
// after another, so every key takes an even share of the whole however many instances run, and
// choosing costs no round trip to Redis (a shared counter would add one to every call of a
// multi-key channel, on the hot path). The turn is a key's number, not a place in the list of
// enabled keys, so disabling or bringing back a key does not move it onto another key; it starts
// at a random key in each process, so instances started together do not all begin on the first.
import {
  channelKeysOf,
  KeyStatus,
  keyStatusOf,
  multiKeyModeOf,
  type MultiKeyMode,
  isMultiKey,
  parseChannelInfo,
} from "../../services/channels/channel-keys.ts";
import type { UpstreamTarget } from "../providers/adaptor.ts";

export type KeySlot = { index: number; target: UpstreamTarget };

export type KeyPool = {
  mode: MultiKeyMode;
  /** Enabled keys, in key order. */
  slots: KeySlot[];
  /** Every key of the channel, enabled or not (a task stays with the key that took it). */
  keys: string[];
  /** Polling: the key number the next choice starts from (kept across rebuilds of the index by channel-cache.ts). */
  cursor: number;
};

type PooledRow = { type: number; key: string; channel_info?: string | null };

/** The pool of a multi-key channel; undefined for a channel with one key (the common case, untouched). */
export function keyPoolOf(row: PooledRow, target: UpstreamTarget, random: () => number = Math.random): KeyPool | undefined {
  const info = parseChannelInfo(row.channel_info);
  if (!isMultiKey(info)) return undefined;
  const keys = channelKeysOf(row);
  const slots: KeySlot[] = [];
  keys.forEach((key, index) => {
    if (keyStatusOf(info, index) === KeyStatus.enabled) slots.push({ index, target: { ...target, key } });
  });
  return { mode: multiKeyModeOf(info), slots, keys, cursor: Math.floor(random() * keys.length) };
}

/** The key for the next attempt, or undefined when this request tried every enabled key. */
export function pickKey(pool: KeyPool, tried?: ReadonlySet<number>, random: () => number = Math.random): KeySlot | undefined {
  const { slots } = pool;
  if (slots.length === 0) return undefined;
  if (pool.mode === "polling") {
    // The first enabled key at or after the cursor, round the end to the start.
    const from = slots.findIndex((slot) => slot.index >= pool.cursor);
    const start = from === -1 ? 0 : from;
    for (let step = 0; step < slots.length; step++) {
      const slot = slots[(start + step) % slots.length]!;
      if (tried?.has(slot.index)) continue;
      pool.cursor = (slot.index + 1) % pool.keys.length;
      return slot;
    }
    return undefined;
  }
  const open = tried?.size ? slots.filter((slot) => !tried.has(slot.index)) : slots;
  return open.length ? open[Math.floor(random() * open.length)] : undefined;
}

/**
 * The target of a task's key: the key that took it while the channel still has it (enabled or
 * not: its task lives on that key's account), else the channel's own target.
 */
export function keyTargetOf(pool: KeyPool | undefined, target: UpstreamTarget, keyIndex: number): UpstreamTarget {
  const key = pool && keyIndex >= 0 ? pool.keys[keyIndex] : undefined;
  return key === undefined ? target : { ...target, key };
}
