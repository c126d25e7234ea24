// Social sign-in and bindings: GitHub and LinuxDO through a server-checked state,
// WeChat through the operator's WeChat server, Telegram through its signed widget data, and
// binding an email address with a mailed code. All behind the critical rate limit.
import { Elysia, NotFoundError, type Cookie } from "elysia";
import { forbidden } from "../errors/app-error.ts";
import { authenticate } from "../http/auth-guard.ts";
import { guardCritical } from "../http/critical-guard.ts";
import { isSecureRequest, sessionCookieName, type SessionJwt } from "../http/session.ts";
import { relyingPartyOf } from "../http/relying-party.ts";
import { finishFirstStep, type SignInRequest } from "../http/sign-in.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { identityFromCode, type OAuthProvider } from "../services/auth/oauth-providers.ts";
import { consumeOAuthState, issueOAuthState, oauthStateCookie, oauthStateSeconds } from "../services/auth/oauth-state.ts";
import { oidcAuthorization, oidcIdentity } from "../services/auth/oidc-provider.ts";
import { assertSocialEnabled, bindSocial, signInWithSocial, unbindSocial } from "../services/auth/social-accounts.ts";
import { telegramIdentity } from "../services/auth/telegram.ts";
import { wechatIdentity } from "../services/auth/wechat.ts";
import { bindEmail } from "../services/users/email-verification.ts";
import { Role } from "../services/users/roles.ts";
import type { UserRow } from "../services/users/user-view.ts";
import { ok } from "./envelope.ts";

type Cookies = Record<string, Cookie<unknown>>;
const oauthProviders = new Set<string>(["github", "linuxdo", "oidc"]);

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

  // A social sign-in is a first step like a password: two-factor accounts are asked for the second.
  const signIn = (user: UserRow, method: string, context: Omit<SignInRequest, "config">) =>
    finishFirstStep({ ...context, config }, user, method);

  const setStateCookie = (request: Request, cookie: Cookies, state: string) =>
    cookie[oauthStateCookie]!.set({
      value: state,
      httpOnly: true,
      sameSite: "strict",
      path: "/api/oauth",
      maxAge: oauthStateSeconds,
      secure: secure(request),
    });

  return (
    new Elysia({ prefix: "/api/oauth" })
      .use(auth)
      .get("/state", async ({ request, server, query, cookie, sessionJwt }) => {
        await guardCritical(config, { request, server });
        // A signed-in user asking for a state is binding an account; anyone else signs in.
        const caller = await callerOf(request, cookie, sessionJwt);
        const state = await issueOAuthState({ aff: (query.aff ?? "").slice(0, 32), bindUserId: caller?.id });
        setStateCookie(request, cookie, state);
        return ok(state);
      })
      // OpenID Connect: the provider's authorization URL with this flow's state, nonce and PKCE
      // challenge; the state (holding the verifier and nonce) also rides in this browser's cookie.
      .get("/oidc/authorize", async ({ request, server, query, cookie, sessionJwt }) => {
        await guardCritical(config, { request, server });
        assertSocialEnabled("oidc");
        const caller = await callerOf(request, cookie, sessionJwt);
        const redirectUri = `${relyingPartyOf(request, config.trustProxy).origin}/oauth/oidc`;
        const url = await oidcAuthorization(redirectUri, async (oidc) => {
          const state = await issueOAuthState({ aff: (query.aff ?? "").slice(0, 32), bindUserId: caller?.id, oidc });
          setStateCookie(request, cookie, state);
          return state;
        });
        return ok(url);
      })
      .delete(
        "/oidc/bind",
        async ({ caller }) => {
          await unbindSocial(caller.user, "oidc");
          return ok(undefined, "解绑成功");
        },
        { role: Role.common },
      )
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
        return signIn(user, "wechat", { request, server, cookie, sessionJwt });
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
        return signIn(user, "telegram", { request, server, cookie, sessionJwt });
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
        const provider = params.provider as OAuthProvider | "oidc";
        await guardCritical(config, { request, server });
        const cookieState = cookie[oauthStateCookie]?.value;
        const intent = await consumeOAuthState(query.state, typeof cookieState === "string" ? cookieState : undefined);
        cookie[oauthStateCookie]!.set({ value: "", httpOnly: true, sameSite: "strict", path: "/api/oauth", maxAge: 0 });
        assertSocialEnabled(provider);
        // A state issued for one kind of flow never completes another.
        if ((provider === "oidc") !== (intent.oidc !== undefined)) throw forbidden("state 为空或不一致");
        const identity = intent.oidc
          ? await oidcIdentity(intent.oidc, query.state ?? "", new URL(request.url).searchParams)
          : await identityFromCode(provider as OAuthProvider, query.code);
        if (intent.bindUserId !== undefined) {
          const caller = await callerOf(request, cookie, sessionJwt);
          if (!caller || caller.id !== intent.bindUserId) throw forbidden("state 为空或不一致");
          await bindSocial(caller, identity);
          // new-api's consoles read the message "bind" as "the account was bound".
          return ok(undefined, "bind");
        }
        return signIn(await signInWithSocial(identity, intent.aff), provider, { request, server, cookie, sessionJwt });
      })
  );
};
