// What a channel form or API client sends about keys, turned into the stored key and channel_info
// (channel-keys.ts). Creating: one key, one channel per key line (batch), or one channel holding
// every key (multi-key: new-api's `{mode: "multi_to_single", multi_key_mode, channel}`, or
// `multi_key: true` in the body). Editing: a new key text replaces the keys (statuses reset) or,
// with `key_mode: "append"`, adds to them; `multi_key_mode` switches between random and in-turn
// use; `multi_key: true` makes a one-key channel a multi-key one (its key first).
import { invalid } from "../../errors/app-error.ts";
import type { ChannelRow } from "./abilities.ts";
import {
  allKeysDisabled,
  type ChannelInfo,
  channelKeysOf,
  isMultiKey,
  joinKeys,
  KeyStatus,
  keyStates,
  multiKeyInfo,
  multiKeyModeOf,
  type MultiKeyMode,
  parseChannelInfo,
  splitKeyText,
  withKeyStatus,
} from "./channel-keys.ts";
import { channelMessages, checkVertexKey } from "./channel-input.ts";

const multiKeyMessages = {
  singleOnly: "多密钥渠道有多个密钥，无法改为单密钥渠道",
} as const;

export type KeyOptions = { multiKey?: boolean; mode?: MultiKeyMode; append?: boolean };

/** The key options of a body: its own fields, or new-api's wrapped create form. */
export function keyOptionsOf(
  body: unknown,
  raw: { multi_key?: boolean | null; multi_key_mode?: string | null; key_mode?: string | null },
): KeyOptions {
  const outer = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  const mode = raw.multi_key_mode ?? (typeof outer.multi_key_mode === "string" ? outer.multi_key_mode : undefined);
  return {
    multiKey: outer.mode === "multi_to_single" || raw.multi_key === true ? true : raw.multi_key === false ? false : undefined,
    mode: mode === "polling" || mode === "random" ? mode : undefined,
    append: raw.key_mode === "append" || outer.key_mode === "append",
  };
}

function checkedKeys(type: number, keys: string[]): string[] {
  if (keys.length === 0) throw invalid(channelMessages.nameAndKey);
  for (const key of keys) checkVertexKey(type, key);
  return keys;
}

/** A new multi-key channel's key column and channel_info. */
export function multiKeyFields(type: number, keyText: string, mode: MultiKeyMode = "random"): { key: string; channel_info: string } {
  const keys = checkedKeys(type, splitKeyText(type, keyText));
  return { key: joinKeys(type, keys), channel_info: JSON.stringify(multiKeyInfo(keys.length, mode)) };
}

/** Enabling a multi-key channel whose keys were all disabled by the relay brings those keys back. */
function withAutoDisabledKeysBack(info: ChannelInfo, count: number): ChannelInfo {
  if (!allKeysDisabled(info, count)) return info;
  let next = info;
  for (const state of keyStates(info, count)) {
    if (state.status === KeyStatus.autoDisabled) next = withKeyStatus(next, state.index, KeyStatus.enabled);
  }
  return next;
}

/**
 * An edit's changes to the key column and channel_info, or none. `keyText` is the body's key
 * (empty: keep the keys); `enabling` says the edit sets the channel's status to enabled.
 */
export function keyChanges(
  current: ChannelRow,
  type: number,
  keyText: string,
  options: KeyOptions,
  enabling: boolean,
): { key?: string; channel_info?: string } {
  const info = parseChannelInfo(current.channel_info);
  const wasMulti = isMultiKey(info);
  const multi = options.multiKey ?? wasMulti;
  if (!multi) {
    if (wasMulti) {
      const keys = keyText ? splitKeyText(type, keyText) : channelKeysOf(current);
      if (keys.length !== 1) throw invalid(multiKeyMessages.singleOnly);
      checkVertexKey(type, keys[0]!);
      return { key: keys[0]!, channel_info: "" };
    }
    if (!keyText) return {};
    checkVertexKey(type, keyText);
    return { key: keyText };
  }
  const mode = options.mode ?? multiKeyModeOf(info);
  const before = channelKeysOf(current);
  if (!wasMulti) {
    // A one-key channel becoming a multi-key one: its key first, unless the edit replaces it.
    const keys = checkedKeys(type, [...new Set([...(keyText && !options.append ? [] : before), ...splitKeyText(type, keyText)])]);
    return { key: joinKeys(type, keys), channel_info: JSON.stringify(multiKeyInfo(keys.length, mode, info)) };
  }
  if (!keyText) {
    let next: ChannelInfo = { ...info, multi_key_mode: mode };
    if (enabling) next = withAutoDisabledKeysBack(next, before.length);
    return JSON.stringify(next) === current.channel_info ? {} : { channel_info: JSON.stringify(next) };
  }
  const added = checkedKeys(type, splitKeyText(type, keyText));
  if (!options.append) return { key: joinKeys(type, added), channel_info: JSON.stringify(multiKeyInfo(added.length, mode, info)) };
  const keys = [...before, ...added.filter((key) => !before.includes(key))];
  let next: ChannelInfo = { ...info, multi_key_mode: mode, multi_key_size: keys.length };
  if (enabling) next = withAutoDisabledKeysBack(next, before.length);
  return { key: joinKeys(type, keys), channel_info: JSON.stringify(next) };
}
