// Whether a user has TOTP two-factor switched on, kept in memory: the admin requirement is checked
// on every signed-in /api call and page of an admin, and must not read the store each time.
// Dropped on the users change notice (enabling, disabling and resets announce it).
import { and, eq } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { onChange } from "../change-notices.ts";
import { optionBool } from "../options/options.ts";
import { invalid } from "../../errors/app-error.ts";
import { Role } from "../users/roles.ts";

const enabledByUser = new Map<number, boolean>();
let generation = 0;
let listening = false;

function listen(): void {
  if (listening) return;
  listening = true;
  onChange("users", (subject) => {
    generation++;
    const id = Number(subject);
    if (subject && Number.isInteger(id)) enabledByUser.delete(id);
    else enabledByUser.clear();
  });
}

export async function twoFactorEnabled(userId: number): Promise<boolean> {
  listen();
  const known = enabledByUser.get(userId);
  if (known !== undefined) return known;
  const startedAt = generation;
  const [row] = await db
    .select({ user_id: t.totp_secrets.user_id })
    .from(t.totp_secrets)
    .where(and(eq(t.totp_secrets.user_id, userId), eq(t.totp_secrets.enabled, true)))
    .limit(1);
  if (startedAt === generation) {
    if (enabledByUser.size > 100_000) enabledByUser.clear();
    enabledByUser.set(userId, row !== undefined);
  }
  return row !== undefined;
}

/** The site requires two-factor of admins and root, and this user is one without it. */
export async function mustEnrolTwoFactor(user: { id: number; role: number }): Promise<boolean> {
  if (user.role < Role.admin || !optionBool("AdminTwoFactorRequired")) return false;
  return !(await twoFactorEnabled(user.id));
}

/**
 * Turning the requirement on needs two-factor on the account that does it: root would otherwise
 * lock their own console out of everything but the setup the moment the switch flips.
 */
export async function assertMayRequireTwoFactor(actorId: number, changes: { key: string; value: unknown }[]): Promise<void> {
  const turningOn = changes.some((change) => change.key === "AdminTwoFactorRequired" && String(change.value) === "true");
  if (turningOn && !(await twoFactorEnabled(actorId))) throw invalid("请先为自己的账户启用两步验证，再要求管理员启用");
}
