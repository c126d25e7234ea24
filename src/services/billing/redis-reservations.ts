// Reservations shared by every instance, in Redis. One Lua script checks and reserves
// atomically, so two instances cannot both take the last of a balance.
//
//   <prefix>res:u:<user>          hash: instance -> the sum that instance holds reserved
//   <prefix>res:u:<user>:charged  sorted set: recent charges by version (used quota after them)
//   <prefix>res:u:<user>:floor    the highest version forgotten from that set
//   (the same under res:t:<token> for limited tokens)
//   <prefix>res:alive:<instance>  present while the instance lives (refreshed every 5 s, 15 s TTL)
//
// A reservation counts only while its instance is alive: an instance killed with requests in
// flight (nothing of which was debited) stops holding anything 15 s later, and a restarted
// process is a new instance holding nothing. Charges are remembered for 30 s, far longer than
// any snapshot is used (a snapshot older than 5 s is read again); a snapshot older than the
// forgotten ones ("stale") is read again too.
//
// While Redis is away (scripts.healthy() false, or a script that gets no answer) a reservation
// is a conditional debit in the store instead (store-debit.ts): money stays exact across every
// instance, never "no check". Reservations made in Redis before the outage may have ended
// without Redis hearing of it, so when Redis is back this instance continues under a new name
// (an epoch) that holds exactly its reservations still open, and the old name's mark is deleted:
// whatever the outage left behind stops counting at once.
import { RedisUnavailable } from "../../cache/redis-link.ts";
import type { RedisScripts } from "../../cache/shared-state.ts";
import { logger } from "../../logger.ts";
import type { Charged, Reservation, ReservationBook, ReserveOutcome, Snapshots } from "./reservation-types.ts";
import { debitInStore, refundInStore } from "./store-debit.ts";

const aliveMs = 15_000;
const heartbeatMs = 5_000;
const rememberMs = 30_000;
const maxSnapshotAgeMs = 5_000;

const reserveScript = `
local function held(key, alive)
  local sum = 0
  local entries = redis.call('HGETALL', key)
  for i = 1, #entries, 2 do
    if redis.call('EXISTS', alive .. entries[i]) == 1 then
      sum = sum + tonumber(entries[i + 1])
    else
      redis.call('HDEL', key, entries[i])
    end
  end
  return sum
end
local function chargedSince(charged, floor, version)
  if version < tonumber(redis.call('GET', floor) or '-1') then return nil end
  local sum = 0
  for _, member in ipairs(redis.call('ZRANGEBYSCORE', charged, '(' .. version, '+inf')) do
    sum = sum + tonumber(string.match(member, ':(%d+)$'))
  end
  return sum
end
local function covers(first, balance, version, needed, alive)
  if balance < 0 then return false end
  local since = chargedSince(KEYS[first + 1], KEYS[first + 2], version)
  if since == nil then return nil end
  return balance - held(KEYS[first], alive) - since >= needed
end
local instance, amount, alive = ARGV[1], tonumber(ARGV[2]), ARGV[4]
local needed = amount * tonumber(ARGV[3])
local user = covers(1, tonumber(ARGV[5]), tonumber(ARGV[6]), needed, alive)
if user == nil then return 'stale' end
if not user then return 'user-short' end
if #KEYS > 3 then
  local token = covers(4, tonumber(ARGV[7]), tonumber(ARGV[8]), needed, alive)
  if token == nil then return 'stale' end
  if not token then return 'token-short' end
  redis.call('HINCRBY', KEYS[4], instance, ARGV[2])
end
redis.call('HINCRBY', KEYS[1], instance, ARGV[2])
return 'reserved'
`;

const endScript = `
local instance, amount, cost, now, retention = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local function finish(first, version)
  if redis.call('HINCRBY', KEYS[first], instance, '-' .. amount) <= 0 then redis.call('HDEL', KEYS[first], instance) end
  if cost <= 0 or version == nil then return end
  local charged, floor = KEYS[first + 1], KEYS[first + 2]
  redis.call('ZADD', charged, version, now .. ':' .. ARGV[6] .. ':' .. ARGV[3])
  local oldest = redis.call('ZRANGE', charged, 0, 63, 'WITHSCORES')
  local forget, highest = 0, nil
  for i = 1, #oldest, 2 do
    if tonumber(string.match(oldest[i], '^(%d+):')) >= now - retention then break end
    forget, highest = forget + 1, tonumber(oldest[i + 1])
  end
  if forget > 0 then
    redis.call('ZREMRANGEBYRANK', charged, 0, forget - 1)
    if highest > tonumber(redis.call('GET', floor) or '-1') then redis.call('SET', floor, highest) end
  end
  redis.call('PEXPIRE', charged, retention * 2)
  redis.call('PEXPIRE', floor, retention * 2)
end
finish(1, ARGV[7] and tonumber(ARGV[7]))
if #KEYS > 3 then finish(4, ARGV[8] and tonumber(ARGV[8])) end
return 1
`;

/** Takes over this instance's open reservations under its new name, and retires the old one. */
const adoptScript = `
local newAlive, oldAlive, newInstance, aliveMs = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
redis.call('SET', newAlive, '1', 'PX', aliveMs)
for i = 1, #KEYS do redis.call('HINCRBY', KEYS[i], newInstance, ARGV[4 + i]) end
redis.call('DEL', oldAlive)
return 1
`;

// After a refund: every remembered charge's version, and the forgotten ones' floor, lowered by
// the refunded amount (KEYS: pairs of charged set and floor; ARGV[1]: the amount).
const refundScript = `
local amount = tonumber(ARGV[1])
for i = 1, #KEYS, 2 do
  local charged, floor = KEYS[i], KEYS[i + 1]
  local members = redis.call('ZRANGE', charged, 0, -1, 'WITHSCORES')
  for j = 1, #members, 2 do redis.call('ZADD', charged, tonumber(members[j + 1]) - amount, members[j]) end
  local lowest = redis.call('GET', floor)
  if lowest then
    local ttl = redis.call('PTTL', floor)
    redis.call('SET', floor, tonumber(lowest) - amount)
    if ttl > 0 then redis.call('PEXPIRE', floor, ttl) end
  end
end
return 1
`;

type Live = { reservation: Reservation; epoch: string };

export async function createRedisReservations(redis: RedisScripts, instanceName: string): Promise<ReservationBook> {
  const nameOf = () => `${instanceName}:${crypto.randomUUID().slice(0, 8)}`;
  const alivePrefix = `${redis.prefix}res:alive:`;
  let instance = nameOf();
  /** Reservations held in Redis, by request id, with the name they were counted under. */
  const live = new Map<string, Live>();
  const heldByUser = new Map<number, number>();
  const heldByToken = new Map<number, number>();
  /** Set from Redis's return until this instance's reservations are adopted by the new name. */
  let adopting: Promise<void> | undefined;

  const beat = () => redis.run("redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 1", [alivePrefix + instance], [String(aliveMs)]);
  await beat().catch(() => undefined);
  const heartbeat = setInterval(() => void beat().catch(() => undefined), heartbeatMs);
  heartbeat.unref?.();

  const keysOf = (reservation: Reservation): string[] => {
    const user = `${redis.prefix}res:u:${reservation.userId}`;
    const keys = [user, `${user}:charged`, `${user}:floor`];
    if (reservation.tokenId) {
      const token = `${redis.prefix}res:t:${reservation.tokenId}`;
      keys.push(token, `${token}:charged`, `${token}:floor`);
    }
    return keys;
  };

  const note = (reservation: Reservation, amount: number) => {
    for (const [held, id] of [
      [heldByUser, reservation.userId],
      [heldByToken, reservation.tokenId],
    ] as const) {
      if (!id) continue;
      const sum = (held.get(id) ?? 0) + amount;
      if (sum > 0) held.set(id, sum);
      else held.delete(id);
    }
  };

  const adopt = async () => {
    const old = instance;
    instance = nameOf();
    const sums = new Map<string, number>();
    for (const entry of live.values()) {
      entry.epoch = instance;
      const [user, , , token] = keysOf(entry.reservation);
      sums.set(user!, (sums.get(user!) ?? 0) + entry.reservation.amount);
      if (token) sums.set(token, (sums.get(token) ?? 0) + entry.reservation.amount);
    }
    await redis.run(
      adoptScript,
      [...sums.keys()],
      [alivePrefix + instance, alivePrefix + old, instance, String(aliveMs), ...[...sums.values()].map(String)],
    );
  };

  redis.onHealthChange((healthy) => {
    if (!healthy || adopting) return;
    adopting = adopt()
      .catch((error) =>
        logger.warn("reservations: could not take over after Redis came back", { error: String((error as Error)?.message ?? error) }),
      )
      .finally(() => (adopting = undefined));
  });

  /**
   * Ends a reservation in Redis. Not retried: the script is not idempotent, and a reply lost after
   * it ran would end the reservation twice (admitting more than the balance). A failure leaves the
   * amount counted under a name the next return of Redis retires.
   */
  const end = async (reservation: Reservation, charged?: Charged) => {
    note(reservation, -reservation.amount);
    if (reservation.debited) {
      // Debited in the store: a settlement gave it back already; a release gives it back now.
      if (!charged) await refundInStore(reservation);
      return;
    }
    if (adopting) await adopting;
    const entry = live.get(reservation.requestId);
    live.delete(reservation.requestId);
    const args = [
      entry?.epoch ?? instance,
      String(reservation.amount),
      String(charged?.cost ?? 0),
      String(Date.now()),
      String(rememberMs),
      reservation.requestId,
    ];
    if (charged) args.push(String(charged.userVersion), String(charged.tokenVersion ?? ""));
    await redis.run(endScript, keysOf(reservation), args).catch((error) => {
      if (!(error instanceof RedisUnavailable)) throw error;
    });
  };

  const inStore = async (reservation: Reservation, margin: number, read: () => Snapshots | Promise<Snapshots>): Promise<ReserveOutcome> => {
    const alsoHeld = { user: heldByUser.get(reservation.userId) ?? 0, token: heldByToken.get(reservation.tokenId) ?? 0 };
    // A token's period budget has no balance in the store to debit: it is checked against a
    // fresh snapshot less what this instance holds (other instances' holds are not seen then).
    if (reservation.tokenId) {
      const { token } = await read();
      if (token?.periodEnd !== undefined && token.balance < reservation.amount * margin + alsoHeld.token) return "token-short";
    }
    const outcome = await debitInStore(reservation, reservation.amount * margin, alsoHeld);
    if (outcome === "reserved") {
      reservation.debited = true;
      note(reservation, reservation.amount);
    }
    return outcome;
  };

  const inRedis = async (reservation: Reservation, margin: number, read: () => Snapshots | Promise<Snapshots>): Promise<ReserveOutcome> => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const readAt = Date.now();
      const snapshots: Snapshots = await read();
      if (Date.now() - readAt > maxSnapshotAgeMs) continue;
      if (!redis.healthy() || adopting) return inStore(reservation, margin, read);
      const epoch = instance;
      const args = [
        epoch,
        String(reservation.amount),
        String(margin),
        alivePrefix,
        String(snapshots.user.balance),
        String(snapshots.user.version),
      ];
      if (reservation.tokenId) args.push(String(snapshots.token?.balance ?? -1), String(snapshots.token?.version ?? 0));
      const outcome = String(await redis.run(reserveScript, keysOf(reservation), args));
      if (outcome === "stale") continue;
      if (outcome === "reserved") {
        reservation.debited = false;
        live.set(reservation.requestId, { reservation, epoch });
        note(reservation, reservation.amount);
      }
      return outcome as ReserveOutcome;
    }
    throw new Error("reservation: the balance changed faster than it could be read");
  };

  return {
    kind: "redis",
    async reserve(reservation, margin, read) {
      if (!redis.healthy() || adopting) return inStore(reservation, margin, read);
      try {
        return await inRedis(reservation, margin, read);
      } catch (error) {
        // No answer: the script may have run, counted under a name Redis's return retires.
        if (error instanceof RedisUnavailable) return inStore(reservation, margin, read);
        throw error;
      }
    },
    settled: (reservation, charged) => end(reservation, charged),
    released: (reservation) => end(reservation),
    async refunded({ userId, tokenId, amount }) {
      const keys = keysOf({ requestId: "", userId, tokenId, amount }).filter((key) => key.endsWith(":charged") || key.endsWith(":floor"));
      await redis.run(refundScript, keys, [String(amount)]);
    },
    heldFor: (userId) => heldByUser.get(userId) ?? 0,
    async close() {
      clearInterval(heartbeat);
      if (adopting) await adopting;
      await redis.run("redis.call('DEL', KEYS[1]) return 1", [alivePrefix + instance], []).catch(() => undefined);
    },
  };
}
