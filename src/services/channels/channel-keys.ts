// Multi-key channels (issue 26), stored as new-api stores them so its databases import as they
// are: the key column holds every key, one per line (a JSON array of key files for types whose
// key is a JSON document, Vertex), and the channel_info JSON says is_multi_key, how keys are
// chosen (multi_key_mode: "random" or "polling", in turn) and, per key index, its status
// (multi_key_status_list: 2 disabled by hand, 3 automatically; absent = enabled) with the reason
// and time of a disable. Pure functions: the channel service, the relay's snapshots and the
// importer read and change the same shape.
import { channelTypeInfo } from "./channel-types.ts";

export const KeyStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;
export type KeyStatusValue = (typeof KeyStatus)[keyof typeof KeyStatus];

export type MultiKeyMode = "random" | "polling";

export type ChannelInfo = {
  is_multi_key?: boolean;
  multi_key_size?: number;
  multi_key_mode?: MultiKeyMode;
  multi_key_status_list?: Record<string, number>;
  multi_key_disabled_reason?: Record<string, string>;
  multi_key_disabled_time?: Record<string, number>;
  multi_key_polling_index?: number;
  [other: string]: unknown;
};

export type KeyState = { index: number; status: KeyStatusValue; reason?: string; time?: number };

type KeyedRow = { type: number; key: string; channel_info?: string | null };

export function parseChannelInfo(text: string | null | undefined): ChannelInfo {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as ChannelInfo) : {};
  } catch {
    return {};
  }
}

export const isMultiKey = (info: ChannelInfo) => info.is_multi_key === true;

export function multiKeyModeOf(info: ChannelInfo): MultiKeyMode {
  return info.multi_key_mode === "polling" ? "polling" : "random";
}

/** The keys a text holds: a JSON array (key files), else one per line; trimmed, blanks and repeats dropped. */
export function splitKeyText(type: number, text: string): string[] {
  const trimmed = text.trim();
  if (channelTypeInfo(type)?.jsonKey && trimmed.startsWith("[")) {
    try {
      const items = JSON.parse(trimmed) as unknown;
      if (Array.isArray(items)) {
        return [...new Set(items.map((item) => (typeof item === "string" ? item.trim() : JSON.stringify(item))).filter(Boolean))];
      }
    } catch {
      // Not an array after all: one key file.
    }
    return [trimmed];
  }
  if (channelTypeInfo(type)?.jsonKey) return trimmed ? [trimmed] : [];
  return [
    ...new Set(
      trimmed
        .split("\n")
        .map((line) => line.trim())
        .filter(Boolean),
    ),
  ];
}

/** The stored form of a multi-key channel's keys. */
export function joinKeys(type: number, keys: readonly string[]): string {
  if (channelTypeInfo(type)?.jsonKey) return JSON.stringify(keys.map((key) => JSON.parse(key) as unknown));
  return keys.join("\n");
}

/** Every key of a channel: its one key, or each key of a multi-key channel. */
export function channelKeysOf(row: KeyedRow): string[] {
  const info = parseChannelInfo(row.channel_info);
  if (!isMultiKey(info)) return [row.key.trim()];
  return splitKeyText(row.type, row.key);
}

export function keyStatusOf(info: ChannelInfo, index: number): KeyStatusValue {
  const status = info.multi_key_status_list?.[String(index)];
  return status === KeyStatus.manuallyDisabled || status === KeyStatus.autoDisabled ? status : KeyStatus.enabled;
}

/** Each key's state (the keys themselves are not part of it). */
export function keyStates(info: ChannelInfo, count: number): KeyState[] {
  return Array.from({ length: count }, (_, index) => {
    const status = keyStatusOf(info, index);
    if (status === KeyStatus.enabled) return { index, status };
    const reason = info.multi_key_disabled_reason?.[String(index)];
    const time = info.multi_key_disabled_time?.[String(index)];
    return { index, status, ...(reason ? { reason } : {}), ...(typeof time === "number" ? { time } : {}) };
  });
}

/** The key requests without a choice use (tests of the whole channel, model lists, balances): the first enabled one. */
export function primaryKeyOf(row: KeyedRow): string {
  const keys = channelKeysOf(row);
  const info = parseChannelInfo(row.channel_info);
  const index = keys.findIndex((_, position) => keyStatusOf(info, position) === KeyStatus.enabled);
  return keys[Math.max(index, 0)] ?? "";
}

/** The info with one key's status set (enabled clears its reason and time). */
export function withKeyStatus(info: ChannelInfo, index: number, status: KeyStatusValue, reason?: string, time?: number): ChannelInfo {
  const key = String(index);
  const statuses = { ...info.multi_key_status_list };
  const reasons = { ...info.multi_key_disabled_reason };
  const times = { ...info.multi_key_disabled_time };
  if (status === KeyStatus.enabled) {
    delete statuses[key];
    delete reasons[key];
    delete times[key];
  } else {
    statuses[key] = status;
    if (reason) reasons[key] = reason;
    else delete reasons[key];
    if (time !== undefined) times[key] = time;
  }
  return { ...info, multi_key_status_list: statuses, multi_key_disabled_reason: reasons, multi_key_disabled_time: times };
}

/** The info after removing the keys at `removed` (the indexes after them move down). */
export function withoutKeys(info: ChannelInfo, count: number, removed: ReadonlySet<number>): ChannelInfo {
  let next: ChannelInfo = {
    ...info,
    multi_key_size: count - removed.size,
    multi_key_status_list: {},
    multi_key_disabled_reason: {},
    multi_key_disabled_time: {},
  };
  let position = 0;
  for (const state of keyStates(info, count)) {
    if (removed.has(state.index)) continue;
    if (state.status !== KeyStatus.enabled) next = withKeyStatus(next, position, state.status, state.reason, state.time);
    position++;
  }
  return next;
}

/** A fresh multi-key info for `count` keys, every one enabled. */
export function multiKeyInfo(count: number, mode: MultiKeyMode, base: ChannelInfo = {}): ChannelInfo {
  return {
    ...base,
    is_multi_key: true,
    multi_key_size: count,
    multi_key_mode: mode,
    multi_key_status_list: {},
    multi_key_disabled_reason: {},
    multi_key_disabled_time: {},
    multi_key_polling_index: 0,
  };
}

/** Whether every key is disabled (a multi-key channel is then disabled itself). */
export function allKeysDisabled(info: ChannelInfo, count: number): boolean {
  return count > 0 && keyStates(info, count).every((state) => state.status !== KeyStatus.enabled);
}

/** A key as an admin may see it in a list: its start and end (a key file: its account). */
export function maskKey(key: string): string {
  if (key.trim().startsWith("{")) {
    try {
      const file = JSON.parse(key) as { client_email?: unknown; project_id?: unknown };
      const name = typeof file.client_email === "string" ? file.client_email : typeof file.project_id === "string" ? file.project_id : "";
      if (name) return name;
    } catch {
      // Shown as text below.
    }
  }
  const oneLine = key.replace(/\s+/g, " ").trim();
  if (oneLine.length <= 12) return `${oneLine.slice(0, 3)}…`;
  return `${oneLine.slice(0, 6)}…${oneLine.slice(-4)}`;
}
