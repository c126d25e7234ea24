// The Responses API state the gateway keeps (issue 24), per user. A response the gateway answered
// over a channel that does not speak the Responses API is kept whole: the response object and
// its input and output items, so a later call can name it (`previous_response_id`), refer to its
// items (`item_reference`) or read it back. A response an OpenAI or Azure channel answered is
// kept there by the upstream: here only its route (the channel, the owner) is written, so the
// follow-ups reach the same channel. Every read names the user: nothing is served to another.
import { and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { optionBool, optionNumber } from "../options/options.ts";

export type ResponseItem = Record<string, unknown>;

/** A kept response: answered here (channelId 0) or a route to the channel that keeps it. */
export type StoredResponse = {
  id: string;
  channelId: number;
  model: string;
  previousResponseId: string | null;
  /** The response object as answered, without its output (routes: empty). */
  envelope: Record<string, unknown>;
  createdAt: number;
};

export type AnsweredResponse = {
  id: string;
  userId: number;
  model: string;
  previousResponseId: string | null;
  /** The response object the client received. */
  response: Record<string, unknown>;
  /** This call's own input items (references resolved), each with an id. */
  input: ResponseItem[];
};

/** Whether the gateway keeps responses at all (the operator's switch). */
export function keepingResponses(): boolean {
  return optionBool("ResponsesStoreEnabled");
}

const expiry = (now: number) => now + Math.max(1, optionNumber("ResponsesRetentionDays")) * 86400;
const live = (now: number) => gt(t.stored_responses.expires_at, now);

/** Keeps a response the gateway answered; false when it could not be kept (too large for the user's cap). */
export async function keepAnsweredResponse(answer: AnsweredResponse): Promise<boolean> {
  const { output, ...rest } = answer.response;
  const body = JSON.stringify(rest);
  const items = [
    ...answer.input.map((item) => ({ role: "input", item })),
    ...(Array.isArray(output) ? (output as ResponseItem[]) : []).map((item) => ({ role: "output", item })),
  ].map((entry, position) => ({
    response_id: answer.id,
    position,
    user_id: answer.userId,
    item_id: String(entry.item.id ?? ""),
    role: entry.role,
    item: JSON.stringify(entry.item),
  }));
  const bytes = body.length + items.reduce((sum, item) => sum + item.item.length, 0);
  // One response larger than the user's whole allowance is not kept (the sweep would drop it at once).
  if (bytes > optionNumber("ResponsesStoreUserLimitMB") * 1024 * 1024) return false;
  const now = nowSeconds();
  await transact(function* (tx) {
    yield* run(
      tx
        .insert(t.stored_responses)
        .values({
          id: answer.id,
          user_id: answer.userId,
          channel_id: 0,
          model: answer.model,
          previous_response_id: answer.previousResponseId,
          body,
          bytes,
          created_at: now,
          expires_at: expiry(now),
        })
        .onConflictDoNothing(),
    );
    // Items in slices: SQLite binds at most 32,766 values per statement.
    for (let start = 0; start < items.length; start += 500) {
      yield* run(
        tx
          .insert(t.stored_response_items)
          .values(items.slice(start, start + 500))
          .onConflictDoNothing(),
      );
    }
  });
  return true;
}

/** Remembers that an upstream channel keeps this response (an OpenAI or Azure answer with storage on). */
export async function keepResponseRoute(route: {
  id: string;
  userId: number;
  channelId: number;
  model: string;
  previousResponseId: string | null;
}): Promise<void> {
  const now = nowSeconds();
  await db
    .insert(t.stored_responses)
    .values({
      id: route.id,
      user_id: route.userId,
      channel_id: route.channelId,
      model: route.model,
      previous_response_id: route.previousResponseId,
      body: "",
      bytes: 0,
      created_at: now,
      expires_at: expiry(now),
    })
    .onConflictDoNothing();
}

function parseObject(text: string): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : {};
  } catch {
    return {};
  }
}

/** The user's kept response (answered here, or a route), unless it expired. */
export async function findStoredResponse(userId: number, id: string): Promise<StoredResponse | undefined> {
  const [row] = await db
    .select()
    .from(t.stored_responses)
    .where(and(eq(t.stored_responses.id, id), eq(t.stored_responses.user_id, userId), live(nowSeconds())))
    .limit(1);
  if (!row) return undefined;
  return {
    id: row.id,
    channelId: row.channel_id,
    model: row.model,
    previousResponseId: row.previous_response_id,
    envelope: parseObject(row.body),
    createdAt: row.created_at,
  };
}

async function itemsOf(responseIds: string[], role?: "input" | "output"): Promise<{ responseId: string; item: ResponseItem }[]> {
  const rows: { response_id: string; position: number; item: string }[] = [];
  for (let start = 0; start < responseIds.length; start += 500) {
    const slice = responseIds.slice(start, start + 500);
    const where = role
      ? and(inArray(t.stored_response_items.response_id, slice), eq(t.stored_response_items.role, role))
      : inArray(t.stored_response_items.response_id, slice);
    rows.push(
      ...(await db
        .select({
          response_id: t.stored_response_items.response_id,
          position: t.stored_response_items.position,
          item: t.stored_response_items.item,
        })
        .from(t.stored_response_items)
        .where(where)),
    );
  }
  const order = new Map(responseIds.map((id, index) => [id, index]));
  rows.sort((a, b) => order.get(a.response_id)! - order.get(b.response_id)! || a.position - b.position);
  return rows.map((row) => ({ responseId: row.response_id, item: parseObject(row.item) }));
}

/** The output items of a response answered here, in order. */
export async function outputOf(id: string): Promise<ResponseItem[]> {
  return (await itemsOf([id], "output")).map((entry) => entry.item);
}

/** How far back a chain of previous_response_id is followed (a loop or an absurd chain ends here). */
const longestChain = 10_000;

/**
 * The conversation a call naming `id` as its previous response continues: the input and output
 * items of every response of the chain, oldest first. Undefined when a link is missing, expired,
 * another user's, or kept upstream.
 */
export async function conversationUpTo(userId: number, id: string): Promise<ResponseItem[] | undefined> {
  const chain: string[] = [];
  const seen = new Set<string>();
  let next: string | null = id;
  const now = nowSeconds();
  while (next && !seen.has(next) && chain.length < longestChain) {
    seen.add(next);
    const [row] = await db
      .select({ id: t.stored_responses.id, channel: t.stored_responses.channel_id, previous: t.stored_responses.previous_response_id })
      .from(t.stored_responses)
      .where(and(eq(t.stored_responses.id, next), eq(t.stored_responses.user_id, userId), live(now)))
      .limit(1);
    if (row?.channel !== 0) return undefined;
    chain.unshift(row.id);
    next = row.previous;
  }
  return (await itemsOf(chain)).map((entry) => entry.item);
}

/** The user's kept items with these ids (what item_reference names); the newest copy of each. */
export async function itemsById(userId: number, ids: string[]): Promise<Map<string, ResponseItem>> {
  const found = new Map<string, ResponseItem>();
  const wanted = [...new Set(ids)].filter((id) => id !== "");
  const now = nowSeconds();
  for (let start = 0; start < wanted.length; start += 500) {
    const rows = await db
      .select({ item_id: t.stored_response_items.item_id, item: t.stored_response_items.item })
      .from(t.stored_response_items)
      .innerJoin(t.stored_responses, eq(t.stored_responses.id, t.stored_response_items.response_id))
      .where(
        and(
          eq(t.stored_response_items.user_id, userId),
          inArray(t.stored_response_items.item_id, wanted.slice(start, start + 500)),
          live(now),
        ),
      )
      .orderBy(desc(t.stored_responses.created_at));
    for (const row of rows) if (!found.has(row.item_id)) found.set(row.item_id, parseObject(row.item));
  }
  return found;
}

export type ItemsPage = { items: ResponseItem[]; hasMore: boolean };

/** A page of a response's input items (GET /v1/responses/{id}/input_items). */
export async function inputItemsPage(id: string, page: { after?: string; limit: number; order: "asc" | "desc" }): Promise<ItemsPage> {
  const items = (await itemsOf([id], "input")).map((entry) => entry.item);
  if (page.order === "desc") items.reverse();
  let start = 0;
  if (page.after) {
    const at = items.findIndex((item) => item.id === page.after);
    start = at < 0 ? items.length : at + 1;
  }
  return { items: items.slice(start, start + page.limit), hasMore: start + page.limit < items.length };
}

/** Forgets one of the user's responses (its items go with it); false when there was none. */
export async function deleteStoredResponse(userId: number, id: string): Promise<boolean> {
  const deleted = await db
    .delete(t.stored_responses)
    .where(and(eq(t.stored_responses.id, id), eq(t.stored_responses.user_id, userId)))
    .returning({ id: t.stored_responses.id });
  return deleted.length > 0;
}

/** Forgets everything kept for a user (the account was deleted). */
export async function forgetUserResponses(userId: number): Promise<void> {
  await db.delete(t.stored_responses).where(eq(t.stored_responses.user_id, userId));
}

/** Rows of one sweep step: bounded, so a sweep never holds the store long. */
const sweepBatch = 500;

/**
 * The retention sweep: responses past their retention go, then each user above the size cap
 * loses their oldest responses until the rest fits.
 */
export async function sweepStoredResponses(): Promise<{ expired: number; overCap: number }> {
  const now = nowSeconds();
  let expired = 0;
  for (;;) {
    const stale = await db
      .select({ id: t.stored_responses.id })
      .from(t.stored_responses)
      .where(lt(t.stored_responses.expires_at, now + 1))
      .limit(sweepBatch);
    if (stale.length === 0) break;
    await db.delete(t.stored_responses).where(
      inArray(
        t.stored_responses.id,
        stale.map((row) => row.id),
      ),
    );
    expired += stale.length;
    if (stale.length < sweepBatch) break;
  }
  return { expired, overCap: await trimUsersOverCap() };
}

async function trimUsersOverCap(): Promise<number> {
  const cap = optionNumber("ResponsesStoreUserLimitMB") * 1024 * 1024;
  const total = sql<number>`sum(${t.stored_responses.bytes})`;
  const over = await db
    .select({ user: t.stored_responses.user_id, total })
    .from(t.stored_responses)
    .groupBy(t.stored_responses.user_id)
    .having(gt(total, cap));
  let removed = 0;
  for (const { user, total: bytes } of over) {
    let excess = Number(bytes) - cap;
    const oldest = await db
      .select({ id: t.stored_responses.id, bytes: t.stored_responses.bytes })
      .from(t.stored_responses)
      .where(eq(t.stored_responses.user_id, user))
      .orderBy(asc(t.stored_responses.created_at), asc(t.stored_responses.id));
    const doomed: string[] = [];
    for (const row of oldest) {
      if (excess <= 0) break;
      doomed.push(row.id);
      excess -= row.bytes;
    }
    for (let start = 0; start < doomed.length; start += sweepBatch) {
      await db.delete(t.stored_responses).where(inArray(t.stored_responses.id, doomed.slice(start, start + sweepBatch)));
    }
    removed += doomed.length;
  }
  return removed;
}
