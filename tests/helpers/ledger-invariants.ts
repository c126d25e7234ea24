// The ledger invariants of the reliability plan (Part 3), read from the store alone, run by the
// fault suite after every case. A failure names the invariant and prints the offending rows.
//
//   L2  used quota of a user = Σ its consumption logs − Σ its task refunds (a failed drawing or
//       music task gives its charge back with a system log, request id "refund:<charge>")
//   L3  used quota of a token = Σ consumption logs with that token; Σ tokens + Σ tokenless logs
//       (playground) = the user's used quota; a limited token's remain + used = what was granted
//   L4  used quota of a channel = Σ its consumption logs; request count of a user = its logs
//   L5  one consumption log at most per relay request id
//   L1  (when the case knows the openings) quota + used quota = opening + top-ups
//   L10 SQLite: integrity_check ok, foreign_key_check empty
//   and nothing reserved: the gateway's own count of open reservations (GET /metrics) reaches 0.
import { storeRows } from "./store-rows.ts";
import type { TestStore } from "./test-store.ts";

/** The consumption log types (0 reads as consumption, see the logs table). */
const consumption = "type in (0, 2)";
/** A charge given back (services/tasks/task-refund.ts): lowers the used quotas by its quota. */
const refund = "type = 4 and request_id like 'refund:%'";
/** What a log adds to the used quotas: its quota if a charge, minus it if a refund. */
const usedDelta = `case when ${consumption} then quota when ${refund} then -quota else 0 end`;
const charges = `case when ${consumption} then 1 else 0 end`;

/** Environment a server needs for the "nothing reserved" check (its /metrics). */
export const metricsToken = "fault-suite-metrics-token";
export const ledgerCheckEnv: Record<string, string> = { METRICS_ENABLED: "true", METRICS_TOKEN: metricsToken };

export type LedgerExpectations = {
  /** quota + used_quota a user must have (opening balance plus what it was given since). */
  totals?: { userId: number; total: number }[];
  /** Limited tokens and what they were granted (remain + used must equal it). */
  granted?: { tokenId: number; granted: number }[];
};

export type LedgerFigures = { users: number; consumptionLogs: number; consumedQuota: number; requestCount: number };

export class LedgerViolation extends Error {}

function violated(invariant: string, rows: unknown[]): never {
  throw new LedgerViolation(
    `ledger invariant ${invariant} broken by ${rows.length} row(s):\n${JSON.stringify(rows.slice(0, 20), null, 1)}`,
  );
}

/** What the server reports as still reserved, or undefined when it is not running. */
export async function openReservations(url: string): Promise<{ count: number; quota: number } | undefined> {
  let text: string;
  try {
    const response = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
    if (response.status !== 200) throw new Error(`/metrics answered ${response.status}: start the server with ledgerCheckEnv`);
    text = await response.text();
  } catch (error) {
    if (error instanceof Error && error.message.startsWith("/metrics")) throw error;
    return undefined;
  }
  const read = (measure: string) =>
    Number(new RegExp(`^switchyard_reservations_open\\{measure="${measure}"\\} (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
  return { count: read("count"), quota: read("quota") };
}

/**
 * Waits until the server holds nothing reserved (settlements finish after the client's answer
 * ends; a loaded machine may take seconds), then checks the store. `url` is the running server,
 * if any (after a crash, pass the restarted one).
 */
export async function checkLedger(
  store: TestStore,
  url: string | undefined,
  expectations: LedgerExpectations = {},
): Promise<LedgerFigures> {
  if (url) {
    let open = await openReservations(url);
    for (let wait = 0; open && open.count !== 0 && wait < 600; wait++) {
      await Bun.sleep(100);
      open = await openReservations(url);
    }
    if (!open) throw new LedgerViolation(`the server at ${url} does not answer: nothing reserved cannot be checked`);
    if (open.count !== 0 || open.quota !== 0) violated("nothing reserved", [open]);
  }

  const users = await storeRows(
    store,
    `select u.id, u.used_quota, u.request_count, coalesce(l.total, 0) as logged, coalesce(l.count, 0) as logs
       from users u left join (select user_id, sum(${usedDelta}) as total, sum(${charges}) as count from logs group by user_id) l on l.user_id = u.id`,
  );
  const unlogged = users.filter((row) => Number(row.used_quota) !== Number(row.logged));
  if (unlogged.length) violated("L2 (used quota = Σ consumption logs)", unlogged);
  const miscounted = users.filter((row) => Number(row.request_count) !== Number(row.logs));
  if (miscounted.length) violated("L4 (request count = number of consumption logs)", miscounted);

  const tokens = await storeRows(
    store,
    `select t.id, t.user_id, t.used_quota, coalesce(l.total, 0) as logged
       from tokens t left join (select token_id, sum(${usedDelta}) as total from logs group by token_id) l on l.token_id = t.id`,
  );
  const tokenDrift = tokens.filter((row) => Number(row.used_quota) !== Number(row.logged));
  if (tokenDrift.length) violated("L3 (token used quota = Σ its consumption logs)", tokenDrift);
  const tokenSums = await storeRows(
    store,
    `select u.id, u.used_quota, coalesce(t.used, 0) + coalesce(l.total, 0) as parts
       from users u
       left join (select user_id, sum(used_quota) as used from tokens group by user_id) t on t.user_id = u.id
       left join (select user_id, sum(${usedDelta}) as total from logs where token_id = 0 group by user_id) l on l.user_id = u.id`,
  );
  const split = tokenSums.filter((row) => Number(row.used_quota) !== Number(row.parts));
  if (split.length) violated("L3 (Σ token used quota + tokenless logs = user used quota)", split);

  const channels = await storeRows(
    store,
    `select c.id, c.used_quota, coalesce(l.total, 0) as logged
       from channels c left join (select channel_id, sum(${usedDelta}) as total from logs group by channel_id) l on l.channel_id = c.id`,
  );
  const channelDrift = channels.filter((row) => Number(row.used_quota) !== Number(row.logged));
  if (channelDrift.length) violated("L4 (channel used quota = Σ its consumption logs)", channelDrift);

  const twice = await storeRows(
    store,
    `select request_id, count(*) as count from logs where ${consumption} and request_id is not null group by request_id having count(*) > 1`,
  );
  if (twice.length) violated("L5 (one consumption log per request id)", twice);

  for (const { tokenId, granted } of expectations.granted ?? []) {
    const [row] = await storeRows(store, "select id, remain_quota, used_quota from tokens where id = ?", tokenId);
    if (!row || Number(row.remain_quota) + Number(row.used_quota) !== granted)
      violated("L3 (limited token: remain + used = granted)", [{ ...row, granted }]);
  }
  for (const { userId, total } of expectations.totals ?? []) {
    const [row] = await storeRows(store, "select id, quota, used_quota from users where id = ?", userId);
    if (!row || Number(row.quota) + Number(row.used_quota) !== total)
      violated("L1 (quota + used quota = opening + top-ups)", [{ ...row, expected: total }]);
  }

  if (store.dialect === "sqlite") {
    const integrity = await store.query<{ integrity_check: string }>("pragma integrity_check");
    if (integrity.length !== 1 || integrity[0]!.integrity_check !== "ok") violated("L10 (integrity_check)", integrity);
    const foreign = await store.query("pragma foreign_key_check");
    if (foreign.length) violated("L10 (foreign_key_check)", foreign);
  }

  const [totals] = await storeRows(store, `select count(*) as count, coalesce(sum(quota), 0) as total from logs where ${consumption}`);
  return {
    users: users.length,
    consumptionLogs: Number(totals.count),
    consumedQuota: Number(totals.total),
    requestCount: users.reduce((sum, row) => sum + Number(row.request_count), 0),
  };
}
