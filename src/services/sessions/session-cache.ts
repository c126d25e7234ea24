// Session rows in memory, so a signed-in request to /api or a page does not read the sessions
// table: loaded on first use, dropped on the "sessions" change notice of any instance (ending a
// session announces it), reloaded by the periodic resync (SYNC_FREQUENCY, every 3 s while Redis
// is away) in case a notice was lost. Last-seen times are written at most once a minute.
import { nowSeconds } from "../../clock.ts";
import { logger } from "../../logger.ts";
import { onChange } from "../change-notices.ts";
import { findSessionRecord, findSessionRecords, recordLastSeen, type SessionRecord } from "./session-records.ts";

type Entry = { record: SessionRecord | null };

const entries = new Map<string, Entry>();
const loading = new Map<string, Promise<SessionRecord | null>>();
/** Bumped by every drop: a load that started before it must not store its stale answer. */
let generation = 0;
const maximumEntries = 100_000;
const lastSeenEverySeconds = 60;
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  onChange("sessions", (subject) => forgetSessions(subject));
}

async function load(tokenHash: string): Promise<SessionRecord | null> {
  const startedAt = generation;
  const record = (await findSessionRecord(tokenHash)) ?? null;
  if (startedAt === generation) {
    if (entries.size >= maximumEntries) entries.clear();
    entries.set(tokenHash, { record });
  }
  return record;
}

/** The session row of a cookie's session id hash, or null when there is none (ended). */
export async function cachedSessionRecord(tokenHash: string): Promise<SessionRecord | null> {
  listen();
  const entry = entries.get(tokenHash);
  if (entry) return entry.record;
  let pending = loading.get(tokenHash);
  if (!pending) {
    pending = load(tokenHash).finally(() => loading.delete(tokenHash));
    loading.set(tokenHash, pending);
  }
  return pending;
}

/** Notes a request of the session; the store hears of it at most once a minute. */
export function touchSession(record: SessionRecord): void {
  const now = nowSeconds();
  if (now - record.last_seen_at < lastSeenEverySeconds) return;
  record.last_seen_at = now;
  recordLastSeen(record.id, now).catch((error) =>
    logger.warn("could not record a session's last use", { error: error instanceof Error ? error.message : String(error) }),
  );
}

/** Drops the cached sessions of one user (subject = user id), or all of them. */
function forgetSessions(subject: string): void {
  generation++;
  const userId = Number(subject);
  if (!subject || !Number.isInteger(userId)) {
    entries.clear();
    return;
  }
  for (const [hash, entry] of entries) {
    // Unknown rows (null) may belong to anyone: a new sign-in of this user could be one of them.
    if (entry.record === null || entry.record.user_id === userId) entries.delete(hash);
  }
}

/** Reloads every cached row from the store (the safety net for lost notices). */
export async function resyncSessions(): Promise<void> {
  generation++;
  const hashes = [...entries.keys()];
  for (let index = 0; index < hashes.length; index += 500) {
    const batch = hashes.slice(index, index + 500);
    const found = new Map((await findSessionRecords(batch)).map((row) => [row.token_hash, row]));
    for (const hash of batch) {
      const row = found.get(hash) ?? null;
      const kept = entries.get(hash)?.record;
      // Keep the newer last-seen this instance already knows of.
      if (row && kept && kept.last_seen_at > row.last_seen_at) row.last_seen_at = kept.last_seen_at;
      entries.set(hash, { record: row });
    }
  }
}
