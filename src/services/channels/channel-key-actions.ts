// POST /api/channel/multi_key/manage {channel_id, action, key_index} (new-api's route and
// actions): each key's state, and the operator's changes to one key or to all of them. Keys are
// shown masked (their start and end), never whole. Every change is announced like a channel's,
// so the relay's index follows at once on every instance.
import type { AuditActor } from "../audit/audit-actor.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { z } from "zod";
import { announceChange } from "../change-notices.ts";
import { parseInput } from "../parse-input.ts";
import { changeKeyStatus, keyIndexMessage, multiKeyChannel, removeKeys } from "./channel-key-writes.ts";
import { channelKeysOf, KeyStatus, keyStates, maskKey, multiKeyModeOf, type MultiKeyMode } from "./channel-keys.ts";
import { invalid } from "../../errors/app-error.ts";

const actions = [
  "get_key_status",
  "enable_key",
  "disable_key",
  "delete_key",
  "enable_all_keys",
  "disable_all_keys",
  "delete_disabled_keys",
] as const;

export const manageKeysInput = z.object({
  channel_id: z.coerce.number().int(),
  action: z.enum(actions),
  key_index: z.coerce.number().int().nullish(),
});

export type KeyView = { index: number; key: string; status: number; reason?: string; time?: number };
export type ChannelKeysView = { channel_id: number; mode: MultiKeyMode; total: number; enabled: number; keys: KeyView[] };

/** A multi-key channel's keys (masked) with their states. */
async function channelKeysView(channelId: number): Promise<ChannelKeysView> {
  const { row, info, count } = await multiKeyChannel(channelId);
  const keys = channelKeysOf(row);
  const states = keyStates(info, count);
  return {
    channel_id: row.id,
    mode: multiKeyModeOf(info),
    total: count,
    enabled: states.filter((state) => state.status === KeyStatus.enabled).length,
    keys: states.map((state) => ({ ...state, key: maskKey(keys[state.index] ?? "") })),
  };
}

function keyIndexOf(input: { key_index?: number | null }): number {
  if (input.key_index === undefined || input.key_index === null) throw invalid(keyIndexMessage);
  return input.key_index;
}

export async function manageChannelKeys(actor: AuditActor, body: unknown): Promise<ChannelKeysView> {
  const input = parseInput(manageKeysInput, body);
  const id = input.channel_id;
  switch (input.action) {
    case "get_key_status":
      return channelKeysView(id);
    case "enable_key":
    case "disable_key":
      await changeKeyStatus(id, {
        keys: [keyIndexOf(input)],
        status: input.action === "enable_key" ? KeyStatus.enabled : KeyStatus.manuallyDisabled,
        manual: true,
      });
      break;
    case "enable_all_keys":
    case "disable_all_keys":
      await changeKeyStatus(id, {
        keys: "all",
        status: input.action === "enable_all_keys" ? KeyStatus.enabled : KeyStatus.manuallyDisabled,
        manual: true,
      });
      break;
    case "delete_key":
      await removeKeys(id, [keyIndexOf(input)]);
      break;
    case "delete_disabled_keys":
      await removeKeys(id, "disabled");
      break;
  }
  // The key writes are transactions of their own (channel-key-writes.ts); the entry follows them.
  await recordAudit(actor, {
    action: `channel.${input.action}`,
    targetType: "channel",
    targetId: id,
    changes: input.key_index === undefined || input.key_index === null ? [] : [{ field: "key_index", after: input.key_index }],
  });
  await announceChange("channels", id);
  return channelKeysView(id);
}
