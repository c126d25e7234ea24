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
// Should Redis be away, the store's conditional debit can take over (issue 18): the settlement
// statements already accept a reserved amount to give back (see ledger-moves.ts).
import type { RedisScripts } from "../../cache/shared-state.ts";
import type { Charged, Reservation, ReservationBook, ReserveOutcome, Snapshots } from "./reservation-book.ts";

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

export async function createRedisReservations(redis: RedisScripts, instanceName: string): Promise<ReservationBook> {
  const instance = `${instanceName}:${crypto.randomUUID().slice(0, 8)}`;
  const aliveKey = `${redis.prefix}res:alive:${instance}`;
  const alivePrefix = `${redis.prefix}res:alive:`;
  const heldByUser = new Map<number, number>();

  const beat = () => redis.run("redis.call('SET', KEYS[1], '1', 'PX', ARGV[1]) return 1", [aliveKey], [String(aliveMs)]);
  await beat();
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

  const note = (userId: number, amount: number) => {
    const held = (heldByUser.get(userId) ?? 0) + amount;
    if (held > 0) heldByUser.set(userId, held);
    else heldByUser.delete(userId);
  };

  /**
   * Ends a reservation in Redis. Not retried: the script is not idempotent, and a reply lost after
   * it ran would end the reservation twice (admitting more than the balance). A failure leaves the
   * amount held while this instance lives, which errs on the side of refusing (issue 18 brings
   * Redis outages under control).
   */
  const end = async (reservation: Reservation, charged?: Charged) => {
    note(reservation.userId, -reservation.amount);
    const args = [instance, String(reservation.amount), String(charged?.cost ?? 0), String(Date.now()), String(rememberMs), reservation.requestId];
    if (charged) args.push(String(charged.userVersion), String(charged.tokenVersion ?? ""));
    await redis.run(endScript, keysOf(reservation), args);
  };

  return {
    kind: "redis",
    async reserve(reservation, margin, read) {
      for (let attempt = 0; attempt < 3; attempt++) {
        const readAt = Date.now();
        const snapshots: Snapshots = await read();
        if (Date.now() - readAt > maxSnapshotAgeMs) continue;
        const args = [instance, String(reservation.amount), String(margin), alivePrefix, String(snapshots.user.balance), String(snapshots.user.version)];
        if (reservation.tokenId) args.push(String(snapshots.token?.balance ?? -1), String(snapshots.token?.version ?? 0));
        const outcome = String(await redis.run(reserveScript, keysOf(reservation), args));
        if (outcome === "stale") continue;
        if (outcome === "reserved") note(reservation.userId, reservation.amount);
        return outcome as ReserveOutcome;
      }
      throw new Error("reservation: the balance changed faster than it could be read");
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
      await redis.run("redis.call('DEL', KEYS[1]) return 1", [aliveKey], []).catch(() => undefined);
    },
  };
}
