// What the channel list asks of the upstream through the relay's adaptors (spec §7 Channels):
// model lists for the form, balances (one channel, or every enabled one). Tests are the relay's
// testChannel / testAllChannels, called directly by the routes.
import { eq } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid, isAppError } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { disableChannelAutomatically } from "../../relay/channel-health.ts";
import { fetchUpstreamModels, queryUpstreamBalance } from "../../relay/providers/registry.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import type { ChannelRow } from "./abilities.ts";
import { findChannel } from "./channel-queries.ts";
import { normalizeBaseUrl } from "./channel-input.ts";

/** GET /api/channel/fetch_models/{id}: the upstream's models with the stored key. */
export async function fetchModelsOfChannel(id: number): Promise<string[]> {
  const channel = await findChannel(id);
  return fetchUpstreamModels({ type: channel.type, baseUrl: channel.base_url, key: channel.key, other: channel.other });
}

/** POST /api/channel/fetch_models {base_url, type, key}: before the channel exists. */
export async function fetchModelsForForm(body: { base_url?: unknown; type?: unknown; key?: unknown; other?: unknown }): Promise<string[]> {
  const key = typeof body.key === "string" ? body.key.trim() : "";
  if (!key) throw invalid("请填写密钥");
  const type = Number(body.type ?? 1);
  if (!Number.isInteger(type)) throw invalid("未知的渠道类型");
  const baseUrl = normalizeBaseUrl(typeof body.base_url === "string" ? body.base_url : "", type);
  return fetchUpstreamModels({ type, baseUrl, key, other: typeof body.other === "string" ? body.other : "" });
}

async function storeBalance(channel: ChannelRow): Promise<number> {
  const balance = await queryUpstreamBalance(channel);
  await db.update(t.channels).set({ balance, balance_updated_time: nowSeconds() }).where(eq(t.channels.id, channel.id));
  await announceChange("channels", channel.id);
  return balance;
}

/** GET /api/channel/update_balance/{id}/: asks the upstream and stores the answer. */
export async function updateChannelBalance(id: number): Promise<number> {
  return storeBalance(await findChannel(id));
}

/**
 * GET /api/channel/update_balance: every enabled channel whose kind reports a balance, a few at
 * a time. A channel with nothing left is disabled the way the relay disables failing ones.
 */
export async function updateAllBalances(): Promise<{ updated: number; failed: number }> {
  const channels = await db.select().from(t.channels).where(eq(t.channels.status, 1));
  let updated = 0;
  let failed = 0;
  const queue = [...channels];
  const worker = async () => {
    for (let channel = queue.shift(); channel; channel = queue.shift()) {
      try {
        const balance = await storeBalance(channel);
        updated++;
        if (balance <= 0) await disableChannelAutomatically({ id: channel.id, name: channel.name, autoBan: channel.auto_ban === 1 }, "余额不足"); // i18n-exempt: stored reason, as the relay stores its reasons
      } catch (error) {
        if (isAppError(error) && error.messageKey === "尚未实现") continue;
        failed++;
        logger.warn("channel balance update failed", { channel: channel.id, error: String(error) });
      }
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  return { updated, failed };
}
