// Social sign-in and bindings (spec §7 OAuth): GitHub and LinuxDO through a server-checked state,
// WeChat through the operator's WeChat server, Telegram through its signed widget data, and
// binding an email address with a mailed code. All behind the critical rate limit.
import { Elysia, NotFoundError, type Cookie } from "elysia";
import { forbidden } from "../errors/app-error.ts";
import { authenticate } from "../http/auth-guard.ts";
import { guardCritical } from "../http/critical-guard.ts";
import { isSecureRequest, sessionCookieName, startSession, type SessionJwt } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { identityFromCode, type OAuthProvider } from "../services/auth/oauth-providers.ts";
import { consumeOAuthState, issueOAuthState, oauthStateCookie, oauthStateSeconds } from "../services/auth/oauth-state.ts";
import { assertSocialEnabled, bindSocial, signInWithSocial } from "../services/auth/social-accounts.ts";
import { telegramIdentity } from "../services/auth/telegram.ts";
import { wechatIdentity } from "../services/auth/wechat.ts";
import { bindEmail } from "../services/users/email-verification.ts";
import { Role } from "../services/users/roles.ts";
import { toSessionUser, type UserRow } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

type Cookies = Record<string, Cookie<unknown>>;
const oauthProviders = new Set<string>(["github", "linuxdo"]);

export const oauthRoutes = ({ config, auth }: WebDeps) => {
  const secure = (request: Request) => isSecureRequest(request, config.trustProxy);

  /** The signed-in caller (session or access token plus New-Api-User), if there is one. */
  const callerOf = async (request: Request, cookie: Cookies, sessionJwt: unknown): Promise<UserRow | undefined> => {
    const token = cookie[sessionCookieName]?.value;
    try {
      return (await authenticate(request, sessionJwt as SessionJwt, typeof token === "string" ? token : undefined, Role.common)).user;
    } catch {
      return undefined;
    }
  };

  const signIn = async (user: UserRow, request: Request, cookie: Cookies, sessionJwt: unknown) => {
    await startSession(sessionJwt as SessionJwt, cookie, user, secure(request));
    return ok(toSessionUser(user), "登录成功！");
  };

  return (
    new Elysia({ prefix: "/api/oauth" })
      .use(auth)
      .get("/state", async ({ request, server, query, cookie, sessionJwt }) => {
        await guardCritical(config, { request, server });
        // A signed-in user asking for a state is binding an account; anyone else signs in.
        const caller = await callerOf(request, cookie, sessionJwt);
        const state = await issueOAuthState({ aff: (query.aff ?? "").slice(0, 32), bindUserId: caller?.id });
        cookie[oauthStateCookie]!.set({ value: state, httpOnly: true, sameSite: "strict", path: "/api/oauth", maxAge: oauthStateSeconds, secure: secure(request) });
        return ok(state);
      })
      .get(
        "/email/bind",
        async ({ request, server, query, caller }) => {
          await guardCritical(config, { request, server });
          await bindEmail(caller.user, query.email, query.code);
          return ok(undefined, "邮箱账户绑定成功！");
        },
        { role: Role.common },
      )
      .get("/wechat", async ({ request, server, query, cookie, sessionJwt }) => {
        await guardCritical(config, { request, server });
        assertSocialEnabled("wechat");
        const user = await signInWithSocial(await wechatIdentity(query.code), query.aff ?? "");
        return signIn(user, request, cookie, sessionJwt);
      })
      .get(
        "/wechat/bind",
        async ({ request, server, query, caller }) => {
          await guardCritical(config, { request, server });
          assertSocialEnabled("wechat");
          await bindSocial(caller.user, await wechatIdentity(query.code));
          return ok(undefined, "微信账户绑定成功！");
        },
        { role: Role.common },
      )
      .get("/telegram/login", async ({ request, server, cookie, sessionJwt }) => {
        await guardCritical(config, { request, server });
        assertSocialEnabled("telegram");
        const params = new URL(request.url).searchParams;
        const user = await signInWithSocial(await telegramIdentity(params), params.get("aff") ?? "");
        return signIn(user, request, cookie, sessionJwt);
      })
      .get(
        "/telegram/bind",
        async ({ request, server, caller }) => {
          await guardCritical(config, { request, server });
          assertSocialEnabled("telegram");
          await bindSocial(caller.user, await telegramIdentity(new URL(request.url).searchParams));
          return ok(undefined, "bind");
        },
        { role: Role.common },
      )
      // GitHub and LinuxDO callbacks: the console's /oauth/{type} page forwards code and state.
      .get("/:provider", async ({ request, server, params, query, cookie, sessionJwt }) => {
        if (!oauthProviders.has(params.provider)) throw new NotFoundError();
        const provider = params.provider as OAuthProvider;
        await guardCritical(config, { request, server });
        const cookieState = cookie[oauthStateCookie]?.value;
        const intent = await consumeOAuthState(query.state, typeof cookieState === "string" ? cookieState : undefined);
        cookie[oauthStateCookie]!.set({ value: "", httpOnly: true, sameSite: "strict", path: "/api/oauth", maxAge: 0 });
        assertSocialEnabled(provider);
        const identity = await identityFromCode(provider, query.code);
        if (intent.bindUserId !== undefined) {
          const caller = await callerOf(request, cookie, sessionJwt);
          if (!caller || caller.id !== intent.bindUserId) throw forbidden("state 为空或不一致");
          await bindSocial(caller, identity);
          // new-api's consoles read the message "bind" as "the account was bound".
          return ok(undefined, "bind");
        }
        return signIn(await signInWithSocial(identity, intent.aff), request, cookie, sessionJwt);
      })
  );
};
