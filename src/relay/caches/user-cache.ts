// Users by id, in memory: the relay checks status, role and group without reading the store.
// Loaded on first use, dropped on the users change notice, reloaded by the periodic resync.
// The balance is not kept here: the store's conditional debit decides.
import { eq, inArray } from "drizzle-orm";
import { readNotifySettings } from "../../services/notify/notify-settings.ts";
import { db, t } from "../../store/client.ts";

export type UserSnapshot = {
  id: number;
  username: string;
  group: string;
  role: number;
  status: number;
  deleted: boolean;
  /** The user's own low-balance threshold (setting JSON), undefined = the site's. */
  quotaWarningThreshold: number | undefined;
  /** The request inspector's window for all the user's calls (unix seconds, 0 = off). */
  captureUntil: number;
};

type Entry = { user: UserSnapshot | null };

const entries = new Map<number, Entry>();
const loading = new Map<number, Promise<UserSnapshot | null>>();
let generation = 0;

/** The columns the relay needs (a function: the tables exist once the store is open). */
const columns = () => ({
  id: t.users.id,
  username: t.users.username,
  group: t.users.group,
  role: t.users.role,
  status: t.users.status,
  deleted_at: t.users.deleted_at,
  setting: t.users.setting,
  capture_until: t.users.capture_until,
});

type UserColumns = {
  id: number;
  username: string;
  group: string;
  role: number;
  status: number;
  deleted_at: number | null;
  setting: string;
  capture_until: number;
};

function toSnapshot(row: UserColumns): UserSnapshot {
  return {
    id: row.id,
    username: row.username,
    group: row.group,
    role: row.role,
    status: row.status,
    deleted: row.deleted_at !== null,
    quotaWarningThreshold: readNotifySettings(row.setting).quotaWarningThreshold,
    captureUntil: Number(row.capture_until),
  };
}

async function load(id: number): Promise<UserSnapshot | null> {
  const startedAt = generation;
  const [row] = await db.select(columns()).from(t.users).where(eq(t.users.id, id)).limit(1);
  const user = row ? toSnapshot(row) : null;
  if (startedAt === generation) entries.set(id, { user });
  return user;
}

/** The cached user, null (no such user), or undefined (not cached). */
/** Users held, for the metrics. */
export function cachedUserCount(): number {
  return entries.size;
}

export function peekUser(id: number): UserSnapshot | null | undefined {
  return entries.get(id)?.user;
}

export async function findUser(id: number): Promise<UserSnapshot | null> {
  const entry = entries.get(id);
  if (entry) return entry.user;
  let pending = loading.get(id);
  if (!pending) {
    pending = load(id).finally(() => loading.delete(id));
    loading.set(id, pending);
  }
  return pending;
}

export function forgetUsers(subject: string): void {
  generation++;
  const id = Number(subject);
  if (subject && Number.isInteger(id)) entries.delete(id);
  else entries.clear();
}

export async function resyncUsers(): Promise<void> {
  generation++;
  const ids = [...entries.keys()];
  for (let index = 0; index < ids.length; index += 500) {
    const batch = ids.slice(index, index + 500);
    const rows = await db.select(columns()).from(t.users).where(inArray(t.users.id, batch));
    const found = new Map(rows.map((row) => [row.id, row]));
    for (const id of batch) {
      const row = found.get(id);
      entries.set(id, { user: row ? toSnapshot(row) : null });
    }
  }
}
