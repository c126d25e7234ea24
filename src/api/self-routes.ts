// The signed-in user's own account (spec §7 Users, Personal).
import { Elysia } from "elysia";
import { endSession, isSecureRequest, startSession, type SessionJwt } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { transferAffQuota } from "../services/users/invites.ts";
import { updateNotificationSetting } from "../services/users/notification-settings.ts";
import { Role } from "../services/users/roles.ts";
import { endAllSessions, ensureAffCode, resetAccessToken, setFirstPassword, updateSelf } from "../services/users/self-service.ts";
import { deleteSelf } from "../services/users/user-manage.ts";
import { toUserView } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

export const selfRoutes = ({ config, auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .get("/self", ({ caller }) => ok(toUserView(caller.user)), { role: Role.common })
    .put(
      "/self",
      async ({ caller, body, cookie, request, sessionJwt }) => {
        const { user, passwordChanged } = await updateSelf(caller.user, body);
        // The password change ended every session; keep this one alive with a fresh cookie.
        if (passwordChanged && caller.via === "session") {
          await startSession(sessionJwt as unknown as SessionJwt, cookie, user, isSecureRequest(request, config.trustProxy));
        }
        return ok(toUserView(user), passwordChanged ? "密码修改成功！" : "用户信息更新成功！");
      },
      { role: Role.common },
    )
    .post(
      "/self/password",
      async ({ caller, body, cookie, request, sessionJwt }) => {
        const user = await setFirstPassword(caller, body);
        if (caller.via === "session") {
          await startSession(sessionJwt as unknown as SessionJwt, cookie, user, isSecureRequest(request, config.trustProxy));
        }
        return ok(toUserView(user), "密码设置成功！");
      },
      { role: Role.common },
    )
    // Sign out everywhere: every session of the account ends on every instance, this one too.
    .delete(
      "/self/sessions",
      async ({ caller, cookie }) => {
        await endAllSessions(caller.user);
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
