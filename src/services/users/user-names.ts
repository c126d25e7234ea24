// The names of users a table lists by id (drawings, tasks, redemptions): one query per page of
// rows, not one per row. Deleted users keep their name, so old rows still say who it was.
import { inArray } from "drizzle-orm";
import { db, t } from "../../store/client.ts";

export async function usernamesByIds(ids: Iterable<number>): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)].filter((id) => Number.isInteger(id) && id > 0);
  if (wanted.length === 0) return new Map();
  const rows = await db.select({ id: t.users.id, username: t.users.username }).from(t.users).where(inArray(t.users.id, wanted));
  return new Map(rows.map((row) => [row.id, row.username]));
}
