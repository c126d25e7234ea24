// What channel management asks of a channel's upstream through its type's adaptor
// (/api/channel): the model list (paged, for the form's "fetch models", before the channel exists
// too) and the balance (one channel, or every enabled one, stored on the row). Tests are
// channel-test.ts, the health rules channel-health.ts.
import { eq } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { AppError, invalid, isAppError } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { announceChange } from "../../services/change-notices.ts";
import type { ChannelRow } from "../../services/channels/abilities.ts";
import { normalizeBaseUrl } from "../../services/channels/channel-input.ts";
import { findChannel } from "../../services/channels/channel-queries.ts";
import { channelTypeInfo } from "../../services/channels/channel-types.ts";
import { db, t } from "../../store/client.ts";
import type { ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "../providers/adaptor.ts";
import { loadAdaptor } from "../providers/registry.ts";
import { CredentialExchangeError, targetWithCredential } from "../upstream/credential-cache.ts";
import { sendOnce } from "../upstream/send-once.ts";
import { scrubMessage } from "../upstream/upstream-failure.ts";
import { disableChannelAutomatically } from "./channel-health.ts";
import { channelTarget, type ChannelRowLike } from "./channel-target.ts";

async function requireAdaptor(type: number): Promise<ProviderAdaptor> {
  const adaptor = await loadAdaptor(type);
  if (!adaptor) throw new AppError("invalid", "不支持的渠道类型：{{type}}", { type });
  return adaptor;
}

const managementTimeoutMs = 20_000;

async function readOk(adaptor: ProviderAdaptor, request: UpstreamRequest, target: UpstreamTarget): Promise<string> {
  const answer = await sendOnce(request, target, managementTimeoutMs, adaptor);
  if (answer.status < 200 || answer.status >= 300) {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: answer.failure ?? `HTTP ${answer.status}` });
  }
  return answer.text;
}

/** The target with the type's exchanged credential; a refused exchange is the upstream's error. */
async function readyTarget(adaptor: ProviderAdaptor, target: UpstreamTarget): Promise<UpstreamTarget> {
  try {
    return await targetWithCredential(adaptor, target);
  } catch (error) {
    if (!(error instanceof CredentialExchangeError)) throw error;
    const message = error.status === 0 ? error.body : adaptor.parseError(error.status, error.body).message;
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: scrubMessage(message, target) });
  }
}

/** A paged list is followed this far at most (an upstream that never stops paging is cut off). */
const maxModelPages = 50;

/** The model ids the upstream lists (channel form "fetch models"), every page of them. */
export async function fetchUpstreamModels(channel: { type: number; baseUrl?: string; key: string; other?: string }): Promise<string[]> {
  const adaptor = await requireAdaptor(channel.type);
  // A key that is one JSON document (Vertex) is the whole key; others may list one per line.
  const key = channelTypeInfo(channel.type)?.jsonKey ? channel.key.trim() : channel.key.split("\n")[0]!.trim();
  const bare = channelTarget({ id: 0, type: channel.type, key, base_url: channel.baseUrl ?? "", other: channel.other ?? "" });
  const target = await readyTarget(adaptor, bare);
  const listing = adaptor.modelList;
  if (!listing) throw new AppError("invalid", "尚未实现");
  let request: UpstreamRequest | null = await listing.request(target);
  const models = new Set<string>();
  for (let page = 0; request && page < maxModelPages; page++) {
    const body = await readOk(adaptor, request, target);
    try {
      for (const model of listing.parse(body)) models.add(model);
      request = listing.next ? await listing.next(target, body) : null;
    } catch {
      throw new AppError("upstream", "上游返回错误：{{message}}", { message: "unreadable model list" });
    }
  }
  return [...models];
}

/** The channel's balance in the provider's currency; AppError "尚未实现" for types without one. */
export async function queryUpstreamBalance(channel: ChannelRowLike): Promise<number> {
  const adaptor = await requireAdaptor(channel.type);
  const balance = adaptor.balance;
  if (!balance) throw new AppError("invalid", "尚未实现");
  const target = await readyTarget(adaptor, channelTarget(channel));
  const bodies: string[] = [];
  for (const request of await balance.requests(target, nowSeconds())) bodies.push(await readOk(adaptor, request, target));
  try {
    return balance.parse(bodies);
  } catch (error) {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: error instanceof Error ? error.message : "unreadable balance" });
  }
}

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
 * GET /api/channel/update_balance: every enabled channel whose type reports a balance, a few at
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
        if (balance <= 0)
          await disableChannelAutomatically({ id: channel.id, name: channel.name, autoBan: channel.auto_ban === 1 }, "余额不足"); // i18n-exempt: stored reason, as the relay stores its reasons
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
