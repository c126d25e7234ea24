// Creating, changing and deleting channels. Every write rebuilds the affected abilities in the
// same transaction and, once committed, tells the relay's caches (announceChange("channels")).
import { eq, inArray } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid, invalidField, notFound } from "../../errors/app-error.ts";
import { t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { auditEntry } from "../audit/record-audit.ts";
import { announceChange } from "../change-notices.ts";
import { removeAbilities, replaceAbilities, type ChannelRow } from "./abilities.ts";
import { channelChanges, channelForCreate, channelMessages, checkVertexKey, parseChannelBody, splitKeys } from "./channel-input.ts";
import { keyChanges, keyOptionsOf, multiKeyFields } from "./channel-key-input.ts";
import { channelNotFound, findChannel, toChannelView, type ChannelView } from "./channel-queries.ts";
import { canRelayType } from "./channel-types.ts";

/** A channel of a type this build cannot relay would look healthy and never answer. */
const unrelayableTypeMessage = "该渠道类型暂不支持转发，无法创建或启用此类渠道";

function refuseUnrelayableType(type: number): void {
  if (!canRelayType(type)) throw invalid(unrelayableTypeMessage);
}

const insertBatchSize = 200;

/** What the audit trail leaves out of a channel's fields: the relay's own bookkeeping. */
const channelAuditRules = {
  secret: ["key", "channel_info"],
  ignore: ["created_time", "test_time", "response_time", "balance_updated_time", "used_quota", "over_limit_count", "over_limit_at"],
} as const;
const copySuffix = "_复制"; // i18n-exempt: stored in the copy's name, as new-api does

/**
 * POST /api/channel/: one channel per key line (batch creation), exactly one when the body is
 * new-api's newer {mode: "single", channel} form or the type's key is a JSON document, or one
 * channel holding every key ({mode: "multi_to_single", multi_key_mode, channel}, or multi_key).
 */
export async function createChannels(actor: AuditActor, body: unknown): Promise<ChannelView[]> {
  const wrapped = body && typeof body === "object" && "channel" in body && typeof (body as { channel: unknown }).channel === "object";
  const raw = parseChannelBody(wrapped ? (body as { channel: unknown }).channel : body);
  const options = keyOptionsOf(body, raw);
  const splitLines = !wrapped || (body as { mode?: unknown }).mode !== "single";
  const fields = channelForCreate(raw);
  refuseUnrelayableType(fields.type);
  const rowsOfKeys: { key: string; channel_info?: string }[] = options.multiKey
    ? [multiKeyFields(fields.type, raw.key ?? "", options.mode)]
    : splitKeys(raw, splitLines).map((key) => ({ key }));
  if (rowsOfKeys.length === 0) throw invalidField("key", channelMessages.nameAndKey);
  if (!options.multiKey) for (const { key } of rowsOfKeys) checkVertexKey(fields.type, key);
  const createdTime = nowSeconds();
  const created = await transact(function* (tx) {
    const rows: ChannelRow[] = [];
    for (let start = 0; start < rowsOfKeys.length; start += insertBatchSize) {
      const values = rowsOfKeys.slice(start, start + insertBatchSize).map((keyed) => ({ ...fields, ...keyed, created_time: createdTime }));
      rows.push(...(yield* run(tx.insert(t.channels).values(values).returning())));
    }
    yield* replaceAbilities(tx, rows);
    yield* auditEntry(tx, actor, {
      action: "channel.create",
      targetType: "channel",
      targetId: rows.map((row) => row.id),
      changes: rowChanges(undefined, { ...fields, key: "set", count: rows.length }, channelAuditRules),
    });
    return rows;
  });
  await announceChange("channels");
  return created.map(toChannelView);
}

/** PUT /api/channel/: changes the fields present; an empty key keeps the stored one. */
export async function updateChannel(actor: AuditActor, body: unknown): Promise<ChannelView> {
  const raw = parseChannelBody(body);
  if (raw.id === undefined) throw invalid("无效的参数");
  const current = await findChannel(raw.id);
  const changes: Partial<ChannelRow> = channelChanges(raw, current);
  Object.assign(
    changes,
    keyChanges(
      current,
      changes.type ?? current.type,
      raw.key?.trim() ?? "",
      keyOptionsOf(body, raw),
      changes.status === 1 && current.status !== 1,
    ),
  );
  if (Object.keys(changes).length === 0) return toChannelView(current);
  // Only a change that makes it enabled (or changes its type) is refused: an old channel of such
  // a type can still be renamed, disabled or deleted.
  if ((changes.type !== undefined || changes.status !== undefined) && (changes.status ?? current.status) === 1) {
    refuseUnrelayableType(changes.type ?? current.type);
  }
  const updated = await transact(function* (tx) {
    const [row] = yield* run(tx.update(t.channels).set(changes).where(eq(t.channels.id, current.id)).returning());
    if (!row) throw notFound(channelNotFound);
    yield* replaceAbilities(tx, [row]);
    yield* auditEntry(tx, actor, {
      action: "channel.update",
      targetType: "channel",
      targetId: row.id,
      changes: rowChanges(current, row, channelAuditRules),
    });
    return row;
  });
  await announceChange("channels");
  return toChannelView(updated);
}

export async function deleteChannel(actor: AuditActor, id: number): Promise<void> {
  await transact(function* (tx) {
    yield* removeAbilities(tx, id);
    const [deleted] = yield* run(tx.delete(t.channels).where(eq(t.channels.id, id)).returning());
    if (!deleted) throw notFound(channelNotFound);
    yield* auditEntry(tx, actor, {
      action: "channel.delete",
      targetType: "channel",
      targetId: id,
      changes: rowChanges(deleted, undefined, channelAuditRules),
    });
  });
  await announceChange("channels");
}

/** POST /api/channel/batch {ids}: deletes the selected channels; gives how many went. */
export async function deleteChannels(actor: AuditActor, ids: unknown): Promise<number> {
  const list = Array.isArray(ids) ? ids.map(Number).filter(Number.isInteger) : [];
  if (list.length === 0) throw invalid("请先选择要删除的通道！");
  const deleted = await transact(function* (tx) {
    yield* run(tx.delete(t.abilities).where(inArray(t.abilities.channel_id, list)));
    const rows = yield* run(
      tx.delete(t.channels).where(inArray(t.channels.id, list)).returning({ id: t.channels.id, name: t.channels.name }),
    );
    yield* auditEntry(tx, actor, deletedChannelsEntry("channel.batch_delete", rows));
    return rows;
  });
  await announceChange("channels");
  return deleted.length;
}

/** DELETE /api/channel/disabled: removes every channel disabled by hand or automatically. */
function deletedChannelsEntry(action: string, rows: { id: number; name: string }[]) {
  return {
    action,
    targetType: "channel",
    targetId: rows.map((row) => row.id),
    changes: [
      { field: "count", before: rows.length },
      { field: "names", before: rows.map((row) => row.name).join(", ") },
    ],
  };
}

export async function deleteDisabledChannels(actor: AuditActor): Promise<number> {
  const deleted = await transact(function* (tx) {
    const rows = yield* run(
      tx
        .select({ id: t.channels.id, name: t.channels.name })
        .from(t.channels)
        .where(inArray(t.channels.status, [2, 3])),
    );
    const ids = rows.map((row) => row.id);
    if (ids.length === 0) return 0;
    yield* run(tx.delete(t.abilities).where(inArray(t.abilities.channel_id, ids)));
    yield* run(tx.delete(t.channels).where(inArray(t.channels.id, ids)));
    yield* auditEntry(tx, actor, deletedChannelsEntry("channel.delete_disabled", rows));
    return ids.length;
  });
  if (deleted > 0) await announceChange("channels");
  return deleted;
}

/**
 * POST /api/channel/copy/{id}: a new channel with the same key and settings, named with a
 * suffix, untested, and (unless asked otherwise) with balance and used quota reset.
 */
export async function copyChannel(
  actor: AuditActor,
  id: number,
  options: { suffix?: string; resetBalance?: boolean } = {},
): Promise<{ id: number }> {
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
      yield* auditEntry(tx, actor, {
        action: "channel.copy",
        targetType: "channel",
        targetId: row!.id,
        changes: [{ field: "source_id", after: source.id }, ...rowChanges(undefined, row, channelAuditRules)],
      });
      return row!;
    });
  } catch (error) {
    throw invalid("渠道复制失败: {{reason}}", { reason: error instanceof Error ? error.message : String(error) });
  }
  await announceChange("channels");
  return { id: copy.id };
}

/** POST /api/channel/fix: rebuilds every ability from the channels; gives the channels fixed. */
export async function fixAbilities(actor: AuditActor): Promise<number> {
  const count = await transact(function* (tx) {
    const channels = yield* run(tx.select().from(t.channels));
    yield* run(tx.delete(t.abilities));
    yield* replaceAbilities(tx, channels);
    yield* auditEntry(tx, actor, {
      action: "channel.fix_abilities",
      targetType: "channel",
      changes: [{ field: "count", after: channels.length }],
    });
    return channels.length;
  });
  await announceChange("channels");
  return count;
}
