// Reading channels for the list, search and tag views of /channel and /api/channel.
// Keys never leave through these views: toChannelView drops them.
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import { notFound } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import { containsText, countRows, escapeLike } from "../../store/dialect.ts";
import type { ChannelRow } from "./abilities.ts";

export type ChannelView = Omit<ChannelRow, "key">;

export function toChannelView(row: ChannelRow): ChannelView {
  const { key: _key, ...view } = row;
  return view;
}

export const channelNotFound = "渠道不存在";

export type ChannelFilter = { keyword?: string; group?: string; model?: string };
export type ChannelOrder = { idSort?: boolean; tagMode?: boolean };
export type Paging = { page: number; pageSize: number };

/** A channel with its key, for the services that need it (never for a response). */
export async function findChannel(id: number): Promise<ChannelRow> {
  const [row] = Number.isInteger(id) ? await db.select().from(t.channels).where(eq(t.channels.id, id)).limit(1) : [];
  if (!row) throw notFound(channelNotFound);
  return row;
}

function filterCondition(filter: ChannelFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  const keyword = filter.keyword?.trim();
  if (keyword) {
    const id = Number(keyword);
    conditions.push(
      or(
        Number.isInteger(id) && /^\d+$/.test(keyword) ? eq(t.channels.id, id) : undefined,
        containsText(t.channels.name, keyword),
        eq(t.channels.key, keyword),
      ),
    );
  }
  const group = filter.group?.trim();
  if (group) {
    // Groups are a comma list: match whole names only, so "vip" does not find "svip".
    const pattern = `%,${escapeLike(group)},%`;
    conditions.push(sql`(',' || ${t.channels.group} || ',') like ${pattern} escape '\\'`);
  }
  const model = filter.model?.trim();
  if (model) conditions.push(containsText(t.channels.models, model));
  return and(...conditions);
}

function orderOf(order: ChannelOrder) {
  return order.idSort ? [desc(t.channels.id)] : [desc(t.channels.priority), desc(t.channels.id)];
}

/** Channels matching the filter, one page of them (or all when paging is omitted), with the total. */
export async function queryChannels(
  filter: ChannelFilter,
  order: ChannelOrder,
  paging?: Paging,
): Promise<{ items: ChannelRow[]; total: number }> {
  const where = filterCondition(filter);
  if (order.tagMode) return queryByTag(where, order, paging);
  const query = db
    .select()
    .from(t.channels)
    .where(where)
    .orderBy(...orderOf(order));
  if (!paging) {
    const items = await query;
    return { items, total: items.length };
  }
  const [items, [counted]] = await Promise.all([
    query.limit(paging.pageSize).offset((paging.page - 1) * paging.pageSize),
    db.select({ count: countRows() }).from(t.channels).where(where),
  ]);
  return { items, total: counted?.count ?? 0 };
}

/**
 * Tag mode pages over entries: every tag is one entry (all its channels come together), every
 * untagged channel is an entry of its own. Entries keep the order of their first channel.
 */
async function queryByTag(where: SQL | undefined, order: ChannelOrder, paging?: Paging) {
  const outline = await db
    .select({ id: t.channels.id, tag: t.channels.tag })
    .from(t.channels)
    .where(where)
    .orderBy(...orderOf(order));
  const entries: number[][] = [];
  const entryOfTag = new Map<string, number[]>();
  for (const channel of outline) {
    if (!channel.tag) {
      entries.push([channel.id]);
      continue;
    }
    let members = entryOfTag.get(channel.tag);
    if (!members) {
      members = [];
      entryOfTag.set(channel.tag, members);
      entries.push(members);
    }
    members.push(channel.id);
  }
  const visible = paging ? entries.slice((paging.page - 1) * paging.pageSize, paging.page * paging.pageSize) : entries;
  const ids = visible.flat();
  const rows = ids.length ? await db.select().from(t.channels).where(inArray(t.channels.id, ids)).orderBy(asc(t.channels.id)) : [];
  const byId = new Map(rows.map((row) => [row.id, row]));
  return { items: ids.map((id) => byId.get(id)).filter((row): row is ChannelRow => row !== undefined), total: entries.length };
}

/** Every distinct model name configured on any channel, sorted (for model pickers). */
export async function configuredModelNames(): Promise<string[]> {
  const rows = await db.selectDistinct({ model: t.abilities.model }).from(t.abilities).orderBy(asc(t.abilities.model));
  return rows.map((row) => row.model);
}

/** The longest model list among a tag's channels, shown as a hint when editing the tag. */
export async function modelsOfTag(tag: string): Promise<string> {
  const rows = await db.select({ models: t.channels.models }).from(t.channels).where(eq(t.channels.tag, tag));
  return rows.reduce((longest, row) => (row.models.split(",").length > longest.split(",").length ? row.models : longest), "");
}
