// Tokens by key, in memory: the relay authenticates without reading the store. A key is loaded
// on its first use (unknown keys are remembered briefly, so a flood of bad keys cannot turn into
// a flood of queries), dropped when the token service announces a change to it, and reloaded by
// the periodic resync. Balances here are a hint for early refusals only; the store's
// conditional debit at hold time is the truth.
import { inArray } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { hasPeriodBudget } from "../../services/tokens/quota-period.ts";
import { splitList } from "../channels/channel-snapshot.ts";
import { parseAddressAllowList, type AddressAllowList } from "../auth/address-allow-list.ts";

type TokenRow = Tables["tokens"]["$inferSelect"];

/** A token's budget per period and its rate limits (issue 27); absent when it has none. */
export type TokenLimits = {
  /** "day", "week" or "month" when the token has a period budget, else "". */
  quotaPeriod: string;
  rpm: number;
  tpm: number;
  concurrency: number;
};

export type TokenSnapshot = {
  id: number;
  userId: number;
  key: string;
  name: string;
  status: number;
  expiredTime: number;
  remainQuota: number;
  unlimited: boolean;
  /** null = any model; an empty set = no model at all. */
  modelLimits: ReadonlySet<string> | null;
  /** null = any address. */
  allowIps: AddressAllowList | null;
  group: string;
  /** The request inspector's window (unix seconds, 0 = off). */
  captureUntil: number;
  limits: TokenLimits | undefined;
};

type Entry = { token: TokenSnapshot | null; loadedAt: number };

const unknownKeyMemoryMs = 10_000;
const maxEntries = 200_000;
const entries = new Map<string, Entry>();
const loading = new Map<string, Promise<TokenSnapshot | null>>();
/** Bumped on every notice, so a load that raced a change does not store stale data. */
let generation = 0;

function toSnapshot(row: TokenRow): TokenSnapshot {
  return {
    id: row.id,
    userId: row.user_id,
    key: row.key,
    name: row.name,
    status: row.status,
    expiredTime: Number(row.expired_time),
    remainQuota: Number(row.remain_quota),
    unlimited: row.unlimited_quota,
    modelLimits: row.model_limits_enabled ? new Set(splitList(row.model_limits)) : null,
    allowIps: parseAddressAllowList(row.allow_ips),
    group: row.group.trim(),
    captureUntil: Number(row.capture_until),
    limits: limitsOf(row),
  };
}

function limitsOf(row: TokenRow): TokenLimits | undefined {
  const quotaPeriod = hasPeriodBudget(row) ? row.quota_period : "";
  const rpm = Number(row.rpm_limit);
  const tpm = Number(row.tpm_limit);
  const concurrency = Number(row.concurrency_limit);
  return quotaPeriod || rpm > 0 || tpm > 0 || concurrency > 0 ? { quotaPeriod, rpm, tpm, concurrency } : undefined;
}

async function load(key: string): Promise<TokenSnapshot | null> {
  const startedAt = generation;
  const [row] = await db
    .select()
    .from(t.tokens)
    .where(inArray(t.tokens.key, [key]))
    .limit(1);
  const token = row && row.deleted_at === null ? toSnapshot(row) : null;
  if (startedAt === generation) {
    if (entries.size >= maxEntries) entries.clear();
    entries.set(key, { token, loadedAt: Date.now() });
  }
  return token;
}

/** Keys held (known tokens and remembered unknown keys), for the metrics. */
export function cachedTokenCount(): number {
  return entries.size;
}

/** The cached answer for a key: a token, null (known unknown), or undefined (not cached). */
export function peekToken(key: string): TokenSnapshot | null | undefined {
  const entry = entries.get(key);
  if (!entry) return undefined;
  if (entry.token || Date.now() - entry.loadedAt < unknownKeyMemoryMs) return entry.token;
  return undefined;
}

export async function findToken(key: string): Promise<TokenSnapshot | null> {
  const cached = peekToken(key);
  if (cached !== undefined) return cached;
  let pending = loading.get(key);
  if (!pending) {
    pending = load(key).finally(() => loading.delete(key));
    loading.set(key, pending);
  }
  return pending;
}

/** A settlement told us the token's new balance. */
export function noteTokenRemain(key: string, remainQuota: number): void {
  const entry = entries.get(key);
  if (entry?.token) entry.token = { ...entry.token, remainQuota };
}

/** A change notice: one key, or every token when the subject is empty. */
export function forgetTokens(key: string): void {
  generation++;
  if (key) entries.delete(key);
  else entries.clear();
}

/** Reloads every cached token from the store (the safety net for a missed notice). */
export async function resyncTokens(): Promise<void> {
  generation++;
  const keys = [...entries.entries()].filter(([, entry]) => entry.token).map(([key]) => key);
  for (const [key, entry] of entries) if (!entry.token) entries.delete(key);
  for (let index = 0; index < keys.length; index += 500) {
    const batch = keys.slice(index, index + 500);
    const rows = await db.select().from(t.tokens).where(inArray(t.tokens.key, batch));
    const found = new Map(rows.map((row) => [row.key, row]));
    const loadedAt = Date.now();
    for (const key of batch) {
      const row = found.get(key);
      entries.set(key, { token: row && row.deleted_at === null ? toSnapshot(row) : null, loadedAt });
    }
  }
}
