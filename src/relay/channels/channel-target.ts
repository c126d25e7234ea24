// A channel row as the adaptors see it: the key, the base URL override, the per-type `other`
// field and the parsed `setting` JSON. Malformed settings are ignored rather than fatal: the
// channel form validates them, and a bad value must not take the relay down.
import { primaryKeyOf } from "../../services/channels/channel-keys.ts";
import type { ChannelSetting, UpstreamTarget } from "../providers/adaptor.ts";

export type ChannelRowLike = {
  id: number;
  type: number;
  key: string;
  base_url?: string | null;
  other?: string | null;
  openai_organization?: string | null;
  setting?: string | null;
  channel_info?: string | null;
};

function parseChannelSetting(text: string | null | undefined): ChannelSetting {
  if (!text) return {};
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const setting: ChannelSetting = {};
    if (typeof parsed.proxy === "string" && /^(https?|socks5h?):\/\//.test(parsed.proxy)) setting.proxy = parsed.proxy;
    if (parsed.hosted_tools === true) setting.hosted_tools = true;
    return setting;
  } catch {
    return {};
  }
}

export function channelTarget(row: ChannelRowLike): UpstreamTarget {
  return {
    id: row.id,
    type: row.type,
    // A multi-key channel's own target carries its first enabled key (tests, model lists, balances).
    key: primaryKeyOf(row),
    baseUrl: (row.base_url ?? "").trim().replace(/\/+$/, ""),
    other: (row.other ?? "").trim(),
    organization: (row.openai_organization ?? "").trim(),
    setting: parseChannelSetting(row.setting),
  };
}
