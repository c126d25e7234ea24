// The signed-in user's own account: profile, password, access token, invites and settings.
import { Elysia } from "elysia";
import type { Caller } from "../http/auth-guard.ts";
import { endSession } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { carrySessionToVersion, endSessionsOfUser } from "../services/sessions/session-records.ts";
import { transferAffQuota } from "../services/users/invites.ts";
import { updateNotificationSetting } from "../services/users/notification-settings.ts";
import { Role } from "../services/users/roles.ts";
import { endAllSessions, ensureAffCode, resetAccessToken, setFirstPassword, updateSelf } from "../services/users/self-service.ts";
import { deleteSelf } from "../services/users/user-manage.ts";
import { toUserView, type UserRow } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

/** A new password ended every session of the account; the one that changed it stays. */
async function keepCallerSession(caller: Caller, user: UserRow): Promise<void> {
  if (caller.sessionRecordId !== undefined) await carrySessionToVersion(caller.sessionRecordId, user.id, user.session_version);
  await endSessionsOfUser(user.id, caller.sessionRecordId);
}

export const selfRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .get("/self", ({ caller }) => ok(toUserView(caller.user)), { role: Role.common })
    .put(
      "/self",
      async ({ caller, body }) => {
        const { user, passwordChanged } = await updateSelf(caller.user, body);
        if (passwordChanged) await keepCallerSession(caller, user);
        return ok(toUserView(user), passwordChanged ? "密码修改成功！" : "用户信息更新成功！");
      },
      { role: Role.common },
    )
    .post(
      "/self/password",
      async ({ caller, body }) => {
        const user = await setFirstPassword(caller, body);
        await keepCallerSession(caller, user);
        return ok(toUserView(user), "密码设置成功！");
      },
      { role: Role.common },
    )
    // Sign out everywhere: every session of the account ends on every instance, this one too.
    .delete(
      "/self/sessions",
      async ({ caller, cookie }) => {
        await endAllSessions(caller.user);
        await endSessionsOfUser(caller.user.id);
        endSession(cookie);
        return ok(undefined, "已退出所有设备");
      },
      { role: Role.common },
    )
    .delete(
      "/self",
      async ({ caller, body, query, cookie }) => {
        const confirmation = (body as { username?: unknown } | undefined)?.username ?? query.username;
        await deleteSelf(caller.user, confirmation);
        endSession(cookie);
        return ok(undefined, "账户已删除！");
      },
      { role: Role.common },
    )
    .get("/token", async ({ caller }) => ok(await resetAccessToken(caller.user)), { role: Role.common })
    .get("/aff", async ({ caller }) => ok(await ensureAffCode(caller.user)), { role: Role.common })
    .post("/aff_transfer", async ({ caller, body }) => ok(await transferAffQuota(caller.user, body), "划转成功"), { role: Role.common })
    .put("/setting", async ({ caller, body }) => ok(await updateNotificationSetting(caller.user, body), "通知设置已更新"), {
      role: Role.common,
    });
