// Tags group channels for the tag view: set a tag on several channels, enable or disable all
// channels of a tag, and edit their shared fields at once (blank fields stay unchanged).
import { and, eq, inArray, type SQL } from "drizzle-orm";
import { invalid } from "../../errors/app-error.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { rowChanges } from "../audit/audit-changes.ts";
import { auditEntry } from "../audit/record-audit.ts";
import { announceChange } from "../change-notices.ts";
import { replaceAbilities, type ChannelRow } from "./abilities.ts";
import { channelMessages, splitList, withinLimit } from "./channel-input.ts";
import { canRelayType } from "./channel-types.ts";

const tagRequired = "标签不能为空！";

function tagOf(value: unknown): string {
  const tag = typeof value === "string" ? value.trim() : "";
  if (!tag) throw invalid(tagRequired);
  return withinLimit("tag", tag);
}

type TagAudit = { actor: AuditActor; action: string; tag?: string };

/** Applies changes to the channels matching a condition and rebuilds their abilities. */
async function updateChannelsWhere(audit: TagAudit, where: SQL, changes: Partial<ChannelRow>): Promise<number> {
  const rows = await transact(function* (tx) {
    const updated = yield* run(tx.update(t.channels).set(changes).where(where).returning());
    yield* replaceAbilities(tx, updated);
    if (updated.length > 0) {
      yield* auditEntry(tx, audit.actor, {
        action: audit.action,
        targetType: "channel",
        targetId: updated.map((row) => row.id),
        changes: [
          ...(audit.tag === undefined ? [] : [{ field: "tag", before: audit.tag }]),
          { field: "count", after: updated.length },
          ...rowChanges(undefined, changes),
        ],
      });
    }
    return updated;
  });
  if (rows.length > 0) await announceChange("channels");
  return rows.length;
}

/** POST /api/channel/batch/tag {ids, tag}. */
export async function setTagOfChannels(actor: AuditActor, body: { ids?: unknown; tag?: unknown }): Promise<number> {
  const ids = Array.isArray(body.ids) ? body.ids.map(Number).filter(Number.isInteger) : [];
  if (ids.length === 0) throw invalid("请先选择要设置标签的渠道！");
  const tag = tagOf(body.tag);
  return updateChannelsWhere({ actor, action: "channel.set_tag" }, inArray(t.channels.id, ids), { tag });
}

/** POST /api/channel/tag/enabled and /disabled {tag}: every channel of the tag at once. */
export async function setTagStatus(actor: AuditActor, body: { tag?: unknown }, enabled: boolean): Promise<number> {
  const tag = tagOf(body.tag);
  const audit = { actor, action: enabled ? "channel.enable_tag" : "channel.disable_tag", tag };
  if (!enabled) return updateChannelsWhere(audit, eq(t.channels.tag, tag), { status: 2 });
  // Enabling skips the channels of a type this build cannot relay (they could never answer),
  // including types outside the catalogue that an import may have brought.
  const members = await db.select({ id: t.channels.id, type: t.channels.type }).from(t.channels).where(eq(t.channels.tag, tag));
  const relayable = members.filter((member) => canRelayType(member.type)).map((member) => member.id);
  if (relayable.length === 0) return 0;
  return updateChannelsWhere(audit, and(eq(t.channels.tag, tag), inArray(t.channels.id, relayable))!, { status: 1 });
}

type TagEdit = {
  tag?: unknown;
  new_tag?: unknown;
  model_mapping?: unknown;
  groups?: unknown;
  models?: unknown;
  priority?: unknown;
  weight?: unknown;
};

const blank = (value: unknown) => value === undefined || value === null || (typeof value === "string" && value.trim() === "");

function integerOrUndefined(value: unknown, message: string, minimum?: number): number | undefined {
  if (blank(value)) return undefined;
  const number = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || (minimum !== undefined && number < minimum)) throw invalid(message);
  return number;
}

/**
 * PUT /api/channel/tag: blank fields stay unchanged; a new tag renames the tag, an empty new tag
 * dissolves it; nothing to change is refused.
 */
export async function editTag(actor: AuditActor, body: TagEdit): Promise<number> {
  const tag = tagOf(body.tag);
  const changes: Partial<ChannelRow> = {};
  const priority = integerOrUndefined(body.priority, channelMessages.priority);
  if (priority !== undefined) changes.priority = priority;
  const weight = integerOrUndefined(body.weight, channelMessages.weight, 0);
  if (weight !== undefined) changes.weight = weight;
  if (!blank(body.model_mapping)) {
    const text = String(body.model_mapping).trim();
    try {
      const parsed = JSON.parse(text);
      if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    } catch {
      throw invalid(channelMessages.modelMapping);
    }
    changes.model_mapping = text;
  }
  if (!blank(body.models)) {
    const models = splitList(body.models as string | string[]);
    if (models.length) changes.models = models.join(",");
  }
  if (!blank(body.groups)) {
    const groups = splitList(body.groups as string | string[]);
    if (groups.length) changes.group = withinLimit("group", groups.join(","));
  }
  if (typeof body.new_tag === "string" && body.new_tag.trim() !== tag) changes.tag = withinLimit("tag", body.new_tag.trim() || null);
  if (Object.keys(changes).length === 0) throw invalid("没有任何修改！");
  return updateChannelsWhere({ actor, action: "channel.edit_tag", tag }, eq(t.channels.tag, tag), changes);
}
