// The "getting started" checklist for admins, ticked from what the store says, not from what
// anyone clicked: an enabled channel exists; one of them passed a test (a test that succeeds
// writes its test log, one that fails does not); a token exists; a token was used for a call
// (settling a call stamps the token); every model an enabled channel serves has a price (an
// unpriced model is refused by the relay, so the site does not work for it yet).
import { and, eq, gt, isNull, or, sql } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { priceOfModel } from "../billing/model-prices.ts";
import { LogType } from "../logs/log-types.ts";

export type GettingStartedStep = "channel" | "test" | "token" | "request" | "prices";

export type GettingStarted = {
  done: Record<GettingStartedStep, boolean>;
  /** Models an enabled channel serves that have no price (at most 20, sorted). */
  unpricedModels: string[];
  complete: boolean;
};

const enabledChannel = 1;

async function exists(query: Promise<unknown[]>): Promise<boolean> {
  return (await query).length > 0;
}

async function servedModels(): Promise<string[]> {
  const rows = await db.selectDistinct({ model: t.abilities.model }).from(t.abilities).where(eq(t.abilities.enabled, true));
  return rows.map((row) => row.model).sort();
}

export async function gettingStarted(): Promise<GettingStarted> {
  const [channel, tested, token, request, models] = await Promise.all([
    exists(db.select({ id: t.channels.id }).from(t.channels).where(eq(t.channels.status, enabledChannel)).limit(1)),
    exists(
      db
        .select({ id: t.logs.id })
        .from(t.logs)
        .innerJoin(t.channels, eq(t.channels.id, t.logs.channel_id))
        // A passing channel test or any call a client made through it: both prove key and address.
        .where(and(eq(t.logs.type, LogType.consume), eq(t.channels.status, enabledChannel)))
        .limit(1),
    ),
    exists(db.select({ id: t.tokens.id }).from(t.tokens).where(isNull(t.tokens.deleted_at)).limit(1)),
    exists(
      db
        .select({ id: t.tokens.id })
        .from(t.tokens)
        .where(or(gt(t.tokens.used_quota, 0), sql`${t.tokens.accessed_time} > ${t.tokens.created_time}`))
        .limit(1),
    ),
    servedModels(),
  ]);
  const unpriced = models.filter((model) => !priceOfModel(model));
  const done = { channel, test: tested, token, request, prices: models.length > 0 && unpriced.length === 0 };
  return { done, unpricedModels: unpriced.slice(0, 20), complete: Object.values(done).every(Boolean) };
}
