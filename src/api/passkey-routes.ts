// Passkeys (issue 28): the caller's own list, registering (options, then the authenticator's
// answer), renaming and removing; and signing in with a passkey alone. The relying party is the
// site's address (http/relying-party.ts).
import { Elysia } from "elysia";
import { guardCritical } from "../http/critical-guard.ts";
import { recordCredentialFailure } from "../http/credential-guard.ts";
import { relyingPartyOf } from "../http/relying-party.ts";
import { openSession, signedInMessage } from "../http/sign-in.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { invalid } from "../errors/app-error.ts";
import {
  finishRegistration,
  listPasskeys,
  loginOptions,
  registrationOptions,
  removePasskey,
  verifyAssertion,
} from "../services/passkeys/passkey-ceremonies.ts";
import { renamePasskey } from "../services/passkeys/passkey-store.ts";
import { Role, UserStatus } from "../services/users/roles.ts";
import { findLiveUserById } from "../services/users/user-queries.ts";
import { toSessionUser } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

export const passkeyRoutes = ({ config, auth }: WebDeps) => {
  const rp = (request: Request) => relyingPartyOf(request, config.trustProxy);
  return (
    new Elysia({ prefix: "/api/user" })
      .use(auth)
      .get("/passkeys", async ({ caller }) => ok(await listPasskeys(caller.user.id)), { role: Role.common })
      .post("/passkeys/options", async ({ request, caller }) => ok(await registrationOptions(caller.user, rp(request))), {
        role: Role.common,
      })
      .post(
        "/passkeys",
        async ({ request, caller, body }) => ok(await finishRegistration(caller.user, rp(request), body), "通行密钥已添加"),
        {
          role: Role.common,
        },
      )
      .put(
        "/passkeys/:id",
        async ({ caller, params, body }) => ok(await renamePasskey(caller.user.id, Number(params.id), body), "保存成功"),
        {
          role: Role.common,
        },
      )
      .delete(
        "/passkeys/:id",
        async ({ caller, params }) => {
          await removePasskey(caller.user, Number(params.id));
          return ok(undefined, "通行密钥已删除");
        },
        { role: Role.common },
      )
      // Signing in with a passkey alone: no password and no second step (the authenticator
      // verified the person, and holding the key is the other factor).
      .post("/passkey/login/options", async ({ request, server }) => {
        await guardCritical(config, { request, server });
        return ok(await loginOptions(rp(request)));
      })
      .post("/passkey/login", async ({ request, server, body, cookie, sessionJwt }) => {
        const userId = await verifyAssertion(rp(request), body).catch(async (error: unknown) => {
          await recordCredentialFailure("login", { request, server }, "", config);
          throw error;
        });
        const user = await findLiveUserById(userId);
        if (!user || user.status !== UserStatus.enabled) throw invalid("用户名或密码错误，或用户已被封禁");
        await openSession({ request, server, cookie, sessionJwt, config }, user, "passkey");
        return ok(toSessionUser(user), signedInMessage);
      })
  );
};
