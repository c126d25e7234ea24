// TOTP two-factor (issue 28): the caller's own setup, switching on and off, the second step of a
// sign-in (a code, a recovery code or a passkey), and root's reset of a user's two-factor.
import { Elysia } from "elysia";
import { invalid, isAppError } from "../errors/app-error.ts";
import { namedAccount, recordCredentialFailure, refuseLockedAccount } from "../http/credential-guard.ts";
import { guardCritical } from "../http/critical-guard.ts";
import { relyingPartyOf } from "../http/relying-party.ts";
import { openSession, setPendingLoginCookie, signedInMessage } from "../http/sign-in.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { passkeyRefused, secondFactorOptions, verifyAssertion } from "../services/passkeys/passkey-ceremonies.ts";
import { endSessionsOfUser } from "../services/sessions/session-records.ts";
import {
  countWrongSecondFactor,
  findPendingLogin,
  pendingLoginCookie,
  consumePendingLogin,
  type PendingLogin,
} from "../services/two-factor/pending-logins.ts";
import {
  checkTypedSecondFactor,
  disableTotp,
  enableTotp,
  resetTotp,
  setupTotp,
  twoFactorStatus,
  wrongTwoFactorCode,
} from "../services/two-factor/totp-accounts.ts";
import { manageableUser } from "../services/users/user-admin.ts";
import { Role, UserStatus } from "../services/users/roles.ts";
import { findLiveUserById } from "../services/users/user-queries.ts";
import { toSessionUser } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

const pendingExpired = "两步验证已过期，请重新登录";

export const twoFactorRoutes = ({ config, auth }: WebDeps) => {
  type Info = { request: Request; server: Parameters<typeof guardCritical>[1]["server"] };
  const countFailure = (info: Info, account: string) => recordCredentialFailure("login", info, account, config);

  /** The pending sign-in of the second-step cookie, or a refusal telling the person to start over. */
  const pendingOf = async (cookieValue: unknown): Promise<PendingLogin> => {
    const pending = await findPendingLogin(typeof cookieValue === "string" ? cookieValue : undefined);
    if (!pending) throw invalid(pendingExpired);
    return pending;
  };

  return (
    new Elysia({ prefix: "/api/user" })
      .use(auth)
      .get("/2fa/status", async ({ caller }) => ok(await twoFactorStatus(caller.user)), { role: Role.common })
      .post("/2fa/setup", async ({ caller }) => ok(await setupTotp(caller.user)), { role: Role.common })
      .post(
        "/2fa/enable",
        async ({ request, server, caller, body }) => {
          await refuseLockedAccount("login", caller.user.username, config);
          const result = await enableTotp(caller.user, body).catch(async (error: unknown) => {
            await countFailure({ request, server }, caller.user.username);
            throw error;
          });
          // Whoever else was signed in to this account must now sign in with the second factor.
          await endSessionsOfUser(caller.user.id, caller.sessionRecordId);
          return ok(result, "两步验证已启用");
        },
        { role: Role.common },
      )
      .post(
        "/2fa/disable",
        async ({ request, server, caller, body }) => {
          await refuseLockedAccount("login", caller.user.username, config);
          if (!(await disableTotp(caller.user, body))) {
            await countFailure({ request, server }, caller.user.username);
            throw invalid(wrongTwoFactorCode);
          }
          return ok(undefined, "两步验证已关闭");
        },
        { role: Role.common },
      )
      .delete(
        "/:id/2fa",
        async ({ caller, actor, params }) => {
          const target = await manageableUser(caller.user, Number(params.id), "无权更新同权限等级或更高权限等级的用户信息");
          await resetTotp(target.id, actor);
          return ok(undefined, "两步验证已重置");
        },
        { role: Role.root },
      )
      // The second step: JSON, this site, the address's failure window (credential-guard.ts);
      // every wrong answer counts against the address and the account like a wrong password.
      .post("/login/2fa", async ({ request, server, body, cookie, sessionJwt }) => {
        const pending = await pendingOf(cookie[pendingLoginCookie]?.value);
        const user = await findLiveUserById(pending.userId);
        if (!user || user.status !== UserStatus.enabled || user.session_version !== pending.sessionVersion) throw invalid(pendingExpired);
        const account = namedAccount({ username: user.username }, "username");
        await refuseLockedAccount("login", account, config);
        const passkey = body && typeof body === "object" && "response" in body;
        const factor = passkey
          ? await verifyAssertion(relyingPartyOf(request, config.trustProxy), body, user.id).then(
              () => "passkey",
              (error: unknown) => {
                if (isAppError(error) && error.messageKey === passkeyRefused) return undefined;
                throw error;
              },
            )
          : await checkTypedSecondFactor(user.id, body);
        if (!factor) {
          await countWrongSecondFactor(pending);
          await countFailure({ request, server }, account);
          throw invalid(passkey ? passkeyRefused : wrongTwoFactorCode);
        }
        if (!(await consumePendingLogin(pending))) throw invalid(pendingExpired);
        setPendingLoginCookie({ request, server, cookie, sessionJwt, config }, "");
        await openSession({ request, server, cookie, sessionJwt, config }, user, `${pending.method}+${factor}`);
        return ok(toSessionUser(user), signedInMessage);
      })
      // A passkey as the second step: a challenge for the passkeys of the first step's account.
      .post("/login/2fa/passkey", async ({ request, server, cookie }) => {
        await guardCritical(config, { request, server });
        const pending = await pendingOf(cookie[pendingLoginCookie]?.value);
        return ok(await secondFactorOptions(pending.userId, relyingPartyOf(request, config.trustProxy)));
      })
  );
};
