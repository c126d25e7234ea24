// Changing the keys of a multi-key channel: one key's status (by the operator, or by the relay's
// health rules), or removing keys. The channel follows its keys: it is disabled when its last
// enabled key goes (automatically: status 3, by hand: 2), and a channel that was disabled because
// every key was comes back when one key does. One conditional update of the row (on the
// channel_info read), repeated when another writer changed it meanwhile, so two keys disabled at
// once on two instances are both kept; the abilities follow the channel's status in the same
// transaction. The caller announces the change (the relay rebuilds its index at once).
import { and, eq } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { ChannelRow } from "./abilities.ts";
import {
  allKeysDisabled,
  type ChannelInfo,
  channelKeysOf,
  isMultiKey,
  joinKeys,
  KeyStatus,
  type KeyStatusValue,
  keyStates,
  parseChannelInfo,
  withKeyStatus,
  withoutKeys,
} from "./channel-keys.ts";
import { channelNotFound, findChannel } from "./channel-queries.ts";
import { notFound } from "../../errors/app-error.ts";

const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;

const notMultiKeyMessage = "该渠道不是多密钥渠道";
export const keyIndexMessage = "无效的密钥序号";

export type KeyChange = {
  /** The keys to change (indexes), or every key. */
  keys: readonly number[] | "all";
  status: KeyStatusValue;
  reason?: string;
  /** The health rules change only keys in this status (a key disabled by hand stays so). */
  onlyFrom?: KeyStatusValue;
  /** By the operator (a last key disabled makes the channel 2, and a key enabled brings a channel disabled for its keys back). */
  manual: boolean;
};

export type KeyChangeResult = { changed: boolean; channelStatus: number; channelChanged: boolean; keys: number };

/** The other_info of a channel disabled because its keys are (kept reason and time, as automatic disables store them). */
function otherInfoWith(current: string, reason: string): string {
  let info: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(current || "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) info = parsed;
  } catch {
    // A broken value is replaced.
  }
  return JSON.stringify({ ...info, status_reason: reason, status_time: nowSeconds() });
}

/** Every key disabled (stored reason, i18n-exempt: stored text like the relay's other reasons). */
const allKeysReason = (reason: string) => `所有密钥均已禁用：${reason}`; // i18n-exempt: stored reason

function nextChannelStatus(row: ChannelRow, before: ChannelInfo, after: ChannelInfo, count: number, change: KeyChange): number {
  const wasAll = allKeysDisabled(before, count);
  const isAll = allKeysDisabled(after, count);
  if (isAll && row.status === ChannelStatus.enabled) {
    return change.manual && change.status === KeyStatus.manuallyDisabled ? ChannelStatus.manuallyDisabled : ChannelStatus.autoDisabled;
  }
  if (wasAll && !isAll) {
    if (row.status === ChannelStatus.autoDisabled) return ChannelStatus.enabled;
    if (change.manual && row.status === ChannelStatus.manuallyDisabled) return ChannelStatus.enabled;
  }
  return row.status;
}

async function readMultiKey(channelId: number): Promise<{ row: ChannelRow; info: ChannelInfo; count: number }> {
  const row = await findChannel(channelId);
  const info = parseChannelInfo(row.channel_info);
  if (!isMultiKey(info)) throw invalid(notMultiKeyMessage);
  return { row, info, count: channelKeysOf(row).length };
}

/** One optimistic write: false when the row changed since it was read (the caller reads again). */
async function writeIfUnchanged(row: ChannelRow, values: Partial<ChannelRow>, abilitiesEnabled: boolean | undefined): Promise<boolean> {
  return transact(function* (tx) {
    const written = yield* run(
      tx
        .update(t.channels)
        .set(values)
        .where(and(eq(t.channels.id, row.id), eq(t.channels.channel_info, row.channel_info), eq(t.channels.key, row.key)))
        .returning({ id: t.channels.id }),
    );
    if (written.length === 0) return false;
    if (abilitiesEnabled !== undefined)
      yield* run(tx.update(t.abilities).set({ enabled: abilitiesEnabled }).where(eq(t.abilities.channel_id, row.id)));
    return true;
  });
}

const attempts = 8;

export async function changeKeyStatus(channelId: number, change: KeyChange): Promise<KeyChangeResult> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { row, info, count } = await readMultiKey(channelId);
    const indexes = change.keys === "all" ? keyStates(info, count).map((state) => state.index) : change.keys;
    if (indexes.some((index) => !Number.isInteger(index) || index < 0 || index >= count)) throw invalid(keyIndexMessage);
    let next = info;
    let changedKeys = 0;
    const time = nowSeconds();
    for (const state of keyStates(info, count)) {
      if (!indexes.includes(state.index) || state.status === change.status) continue;
      if (change.onlyFrom !== undefined && state.status !== change.onlyFrom) continue;
      next = withKeyStatus(next, state.index, change.status, change.reason, time);
      changedKeys++;
    }
    if (changedKeys === 0) return { changed: false, channelStatus: row.status, channelChanged: false, keys: count };
    const status = nextChannelStatus(row, info, next, count, change);
    const values: Partial<ChannelRow> = { channel_info: JSON.stringify(next) };
    if (status !== row.status) {
      values.status = status;
      if (status !== ChannelStatus.enabled) values.other_info = otherInfoWith(row.other_info, allKeysReason(change.reason ?? ""));
    }
    if (await writeIfUnchanged(row, values, status !== row.status ? status === ChannelStatus.enabled : undefined)) {
      return { changed: true, channelStatus: status, channelChanged: status !== row.status, keys: count };
    }
  }
  throw new Error(`channel ${channelId}: its keys kept changing while being written`);
}

/** Removes keys (by index, or every disabled one); a channel keeps at least one key. */
export async function removeKeys(channelId: number, which: readonly number[] | "disabled"): Promise<{ removed: number; keys: number }> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    const { row, info, count } = await readMultiKey(channelId);
    const states = keyStates(info, count);
    const removed = new Set(
      which === "disabled" ? states.filter((state) => state.status !== KeyStatus.enabled).map((state) => state.index) : which,
    );
    if ([...removed].some((index) => !Number.isInteger(index) || index < 0 || index >= count)) throw invalid(keyIndexMessage);
    if (removed.size === 0) return { removed: 0, keys: count };
    if (removed.size >= count) throw invalid("渠道至少需要保留一个密钥");
    const keys = channelKeysOf(row).filter((_, index) => !removed.has(index));
    const next = withoutKeys(info, count, removed);
    const status =
      allKeysDisabled(info, count) && !allKeysDisabled(next, keys.length) && row.status === ChannelStatus.autoDisabled ? 1 : row.status;
    const values: Partial<ChannelRow> = { key: joinKeys(row.type, keys), channel_info: JSON.stringify(next), status };
    if (await writeIfUnchanged(row, values, status !== row.status ? true : undefined)) return { removed: removed.size, keys: keys.length };
  }
  throw new Error(`channel ${channelId}: its keys kept changing while being written`);
}

/** A channel's row, only when it exists (for callers that check before changing). */
export async function multiKeyChannel(channelId: number): Promise<{ row: ChannelRow; info: ChannelInfo; count: number }> {
  if (!Number.isInteger(channelId)) throw notFound(channelNotFound);
  return readMultiKey(channelId);
}
