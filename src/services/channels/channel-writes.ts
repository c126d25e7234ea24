// Creating, changing and deleting channels. Every write rebuilds the affected abilities in the
// same transaction and, once committed, tells the relay's caches (announceChange("channels")).
import { eq, inArray } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid, notFound } from "../../errors/app-error.ts";
import { t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { announceChange } from "../change-notices.ts";
import { removeAbilities, replaceAbilities, type ChannelRow } from "./abilities.ts";
import {
  channelChanges,
  channelForCreate,
  channelMessages,
  checkVertexKey,
  parseChannelBody,
  splitKeys,
} from "./channel-input.ts";
import { channelNotFound, findChannel, toChannelView, type ChannelView } from "./channel-queries.ts";
import { canRelayKind } from "../../relay/relayable-kinds.ts";

/** A channel of a kind this build cannot relay would look healthy and never answer. */
export const unrelayableKindMessage = "该渠道类型暂不支持转发，无法创建或启用此类渠道";

function refuseUnrelayableKind(kind: number): void {
  if (!canRelayKind(kind)) throw invalid(unrelayableKindMessage);
}

const insertBatchSize = 200;
const copySuffix = "_复制"; // i18n-exempt: stored in the copy's name, as new-api does

/**
 * POST /api/channel/: one channel per key line (batch creation), or exactly one when the body
 * is new-api's newer {mode: "single", channel} form or the kind's key is a JSON document.
 */
export async function createChannels(body: unknown): Promise<ChannelView[]> {
  const wrapped = body && typeof body === "object" && "channel" in body && typeof (body as { channel: unknown }).channel === "object";
  const raw = parseChannelBody(wrapped ? (body as { channel: unknown }).channel : body);
  const splitLines = !wrapped || (body as { mode?: unknown }).mode !== "single";
  const fields = channelForCreate(raw);
  refuseUnrelayableKind(fields.type);
  const keys = splitKeys(raw, splitLines);
  if (keys.length === 0) throw invalid(channelMessages.nameAndKey);
  for (const key of keys) checkVertexKey(fields.type, key);
  const createdTime = nowSeconds();
  const created = await transact(function* (tx) {
    const rows: ChannelRow[] = [];
    for (let start = 0; start < keys.length; start += insertBatchSize) {
      const values = keys.slice(start, start + insertBatchSize).map((key) => ({ ...fields, key, created_time: createdTime }));
      rows.push(...(yield* run(tx.insert(t.channels).values(values).returning())));
    }
    yield* replaceAbilities(tx, rows);
    return rows;
  });
  await announceChange("channels");
  return created.map(toChannelView);
}

/** PUT /api/channel/: changes the fields present; an empty key keeps the stored one. */
export async function updateChannel(body: unknown): Promise<ChannelView> {
  const raw = parseChannelBody(body);
  if (raw.id === undefined) throw invalid("无效的参数");
  const current = await findChannel(raw.id);
  const changes: Partial<ChannelRow> = channelChanges(raw, current);
  const key = raw.key?.trim();
  if (key) {
    checkVertexKey(changes.type ?? current.type, key);
    changes.key = key;
  }
  if (Object.keys(changes).length === 0) return toChannelView(current);
  // Only a change that makes it enabled (or changes its kind) is refused: an old channel of such
  // a kind can still be renamed, disabled or deleted.
  if ((changes.type !== undefined || changes.status !== undefined) && (changes.status ?? current.status) === 1) {
    refuseUnrelayableKind(changes.type ?? current.type);
  }
  const updated = await transact(function* (tx) {
    const [row] = yield* run(tx.update(t.channels).set(changes).where(eq(t.channels.id, current.id)).returning());
    if (!row) throw notFound(channelNotFound);
    yield* replaceAbilities(tx, [row]);
    return row;
  });
  await announceChange("channels");
  return toChannelView(updated);
}

export async function deleteChannel(id: number): Promise<void> {
  await transact(function* (tx) {
    yield* removeAbilities(tx, id);
    const deleted = yield* run(tx.delete(t.channels).where(eq(t.channels.id, id)).returning({ id: t.channels.id }));
    if (deleted.length === 0) throw notFound(channelNotFound);
  });
  await announceChange("channels");
}

/** POST /api/channel/batch {ids}: deletes the selected channels; gives how many went. */
export async function deleteChannels(ids: unknown): Promise<number> {
  const list = Array.isArray(ids) ? ids.map(Number).filter(Number.isInteger) : [];
  if (list.length === 0) throw invalid("请先选择要删除的通道！");
  const deleted = await transact(function* (tx) {
    yield* run(tx.delete(t.abilities).where(inArray(t.abilities.channel_id, list)));
    return yield* run(tx.delete(t.channels).where(inArray(t.channels.id, list)).returning({ id: t.channels.id }));
  });
  await announceChange("channels");
  return deleted.length;
}

/** DELETE /api/channel/disabled: removes every channel disabled by hand or automatically. */
export async function deleteDisabledChannels(): Promise<number> {
  const deleted = await transact(function* (tx) {
    const rows = yield* run(tx.select({ id: t.channels.id }).from(t.channels).where(inArray(t.channels.status, [2, 3])));
    const ids = rows.map((row) => row.id);
    if (ids.length === 0) return 0;
    yield* run(tx.delete(t.abilities).where(inArray(t.abilities.channel_id, ids)));
    yield* run(tx.delete(t.channels).where(inArray(t.channels.id, ids)));
    return ids.length;
  });
  if (deleted > 0) await announceChange("channels");
  return deleted;
}

/**
 * POST /api/channel/copy/{id}: a new channel with the same key and settings, named with a
 * suffix, untested, and (unless asked otherwise) with balance and used quota reset.
 */
export async function copyChannel(id: number, options: { suffix?: string; resetBalance?: boolean } = {}): Promise<{ id: number }> {
  const source = await findChannel(id).catch(() => {
    throw notFound("渠道未找到，请刷新页面后重试。");
  });
  const { id: _id, ...fields } = source;
  let copy: ChannelRow;
  try {
    copy = await transact(function* (tx) {
      const [row] = yield* run(
        tx
          .insert(t.channels)
          .values({
            ...fields,
            name: `${source.name}${options.suffix ?? copySuffix}`,
            created_time: nowSeconds(),
            test_time: 0,
            response_time: 0,
            ...(options.resetBalance === false ? {} : { balance: 0, used_quota: 0, balance_updated_time: 0 }),
          })
          .returning(),
      );
      yield* replaceAbilities(tx, [row!]);
      return row!;
    });
  } catch (error) {
    throw invalid("渠道复制失败: {{reason}}", { reason: error instanceof Error ? error.message : String(error) });
  }
  await announceChange("channels");
  return { id: copy.id };
}

/** POST /api/channel/fix: rebuilds every ability from the channels; gives the channels fixed. */
export async function fixAbilities(): Promise<number> {
  const count = await transact(function* (tx) {
    const channels = yield* run(tx.select().from(t.channels));
    yield* run(tx.delete(t.abilities));
    yield* replaceAbilities(tx, channels);
    return channels.length;
  });
  await announceChange("channels");
  return count;
}
