// One write to a live (not deleted) user, followed by the change notice caches listen for. A
// value another user already holds (address, social id, username) is refused with `taken`.
import { and, eq, isNull } from "drizzle-orm";
import { invalid } from "../../errors/app-error.ts";
import { isUniqueViolation } from "../../store/dialect.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import type { UserRow } from "./user-view.ts";

type UserChanges = Parameters<ReturnType<typeof db.update<typeof t.users>>["set"]>[0];

export async function updateLiveUser(userId: number, changes: UserChanges, taken = "用户名已存在，或已注销"): Promise<UserRow> {
  let updated: UserRow | undefined;
  try {
    [updated] = await db
      .update(t.users)
      .set(changes)
      .where(and(eq(t.users.id, userId), isNull(t.users.deleted_at)))
      .returning();
  } catch (error) {
    if (isUniqueViolation(error)) throw invalid(taken);
    throw error;
  }
  if (!updated) throw invalid("用户不存在");
  await announceChange("users", updated.id);
  return updated;
}
