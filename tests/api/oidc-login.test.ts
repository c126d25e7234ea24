// Generic OpenID Connect sign-in (issue 28) against a local provider (oidc-identity-provider.ts):
// discovery, the authorization code flow with PKCE, state and nonce, the ID token's signature
// checked against the provider's JWKS; refused tokens (bad signature, wrong nonce, wrong
// audience, expired); new accounts by `sub`, binding and unbinding, never matching by e-mail.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiResult, ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import {
  startOidcIdentityProvider,
  type OidcFault,
  type OidcIdentityProvider,
  type OidcPerson,
} from "../helpers/oidc-identity-provider.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { enableTwoFactor } from "../helpers/two-factor.ts";

let server: TestServer;
let root: ApiSession;
let idp: OidcIdentityProvider;
beforeAll(async () => {
  idp = await startOidcIdentityProvider();
  // The provider runs on loopback: the operator trusts it explicitly, as for any private host.
  server = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
  root = await rootSession(server.url);
});
afterAll(async () => {
  await server.stop();
  idp.stop();
});

const setOptions = async (...entries: [string, string][]) => {
  const result = await root.put(
    "/api/option/",
    entries.map(([key, value]) => ({ key, value })),
  );
  expect(result.body.success).toBe(true);
};

/** The browser's round trip: authorize URL from the gateway, the provider's redirect, the callback. */
async function oidcSignIn(
  person: OidcPerson,
  session = new ApiSession(server.url),
  fault?: OidcFault,
): Promise<ApiResult & { callback: string }> {
  idp.signInAs(person);
  if (fault) idp.misbehave(fault);
  const start = await session.get("/api/oauth/oidc/authorize");
  if (!start.body.success) return Object.assign(start, { callback: "" });
  const authorize = await fetch(start.body.data, { redirect: "manual" });
  const back = new URL(authorize.headers.get("location")!);
  expect(back.pathname).toBe("/oauth/oidc");
  const result = await session.get(`/api/oauth/oidc${back.search}`);
  if (result.body.success && result.body.data?.id) session.userId = result.body.data.id;
  return Object.assign(result, { callback: back.search });
}

const userRow = async (where: string, ...params: unknown[]) =>
  (await server.store.query<Record<string, any>>(`select * from users where ${where}`, ...params))[0];

describe("settings", () => {
  test("the switch needs the discovery URL, client id and secret; a disabled provider refuses", async () => {
    expect((await new ApiSession(server.url).get("/api/oauth/oidc/authorize")).body.message).toBe("管理员未开启通过 OIDC 登录以及注册");
    expect((await root.put("/api/option/", { key: "OidcEnabled", value: "true" })).body.message).toBe(
      "无法启用 OIDC 登录，请先填入发现地址、Client Id 以及 Client Secret！",
    );
    expect((await root.put("/api/option/", { key: "OidcDiscoveryUrl", value: "javascript:alert(1)" })).body.success).toBe(false);
    await setOptions(...idp.options.map((option): [string, string] => [option.key, option.value]), ["OidcEnabled", "true"]);
    const status = (await new ApiSession(server.url).get("/api/status")).body.data;
    expect(status.oidc_enabled).toBe(true);
    expect(status.oidc_provider_name).toBe("Acme SSO");
    // The client secret is never listed back.
    const listed = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
    expect(listed.some((option) => option.value === "oidc-client-secret")).toBe(false);
  });
});

describe("signing in", () => {
  test("discovery, PKCE (S256), state and nonce; a first sign-in creates the account named by the configured claim", async () => {
    const session = new ApiSession(server.url);
    const result = await oidcSignIn(
      { sub: "sub-alice", preferred_username: "alice.sso", name: "Alice", email: "Alice@Example.com", email_verified: true },
      session,
    );
    expect(result.body.success).toBe(true);
    expect(result.body.message).toBe("登录成功！");
    expect(result.body.data.username).toBe("alice.sso");
    const authorize = idp.authorizeRequests.at(-1)!;
    expect(authorize.get("code_challenge_method")).toBe("S256");
    expect(authorize.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(authorize.get("nonce")).toMatch(/.{20,}/);
    expect(authorize.get("scope")).toBe("openid profile email");
    expect(authorize.get("redirect_uri")).toBe(`${server.url}/oauth/oidc`);
    const row = await userRow("username = ?", "alice.sso");
    expect(row!.oidc_id).toBe("sub-alice");
    expect(row!.email).toBe("alice@example.com");
    expect(row!.display_name).toBe("Alice");
    expect(row!.password).toBe("");
    expect((await session.get("/api/user/self")).body.data.username).toBe("alice.sso");
    // The same person again: the same account, found by sub; the session records the method.
    const again = await oidcSignIn({ sub: "sub-alice", preferred_username: "renamed" });
    expect(again.body.data.id).toBe(row!.id);
    const sessions = (await session.get("/api/user/sessions")).body.data as { method: string }[];
    expect(sessions.every((entry) => entry.method === "oidc")).toBe(true);
  });

  test("a claim that is not a valid user name falls back to oidc_<n>; an unverified address is not kept", async () => {
    const result = await oidcSignIn({
      sub: "sub-long",
      preferred_username: "a name far too long",
      email: "long@example.com",
      email_verified: false,
    });
    expect(result.body.data.username).toMatch(/^oidc_\d+$/);
    expect((await userRow("oidc_id = ?", "sub-long"))!.email).toBe("");
  });

  // What the server logs as the reason (openid-client's check that failed).
  const reasons = { "bad-signature": /signature/i, "wrong-nonce": /nonce/i, "wrong-aud": /audience/i, expired: /expiration/i };
  for (const fault of ["bad-signature", "wrong-nonce", "wrong-aud", "expired"] as const) {
    test(`an ID token with ${fault} is refused and signs nobody in`, async () => {
      const session = new ApiSession(server.url);
      const logged = server.output().length;
      const result = await oidcSignIn({ sub: `sub-${fault}`, preferred_username: fault.slice(0, 12) }, session, fault);
      expect(result.body).toEqual({ success: false, message: "OIDC 授权失败，请重新登录" });
      // The server's output reaches the test a moment after its answer.
      const refusalLine = () =>
        server
          .output()
          .slice(logged)
          .split("\n")
          .find((line) => line.includes("oidc sign-in refused"));
      const deadline = Date.now() + 5000;
      while (!refusalLine() && Date.now() < deadline) await Bun.sleep(20);
      const refusal = refusalLine();
      expect(refusal).toMatch(reasons[fault]);
      expect(session.cookie).toBe("");
      expect(await userRow("oidc_id = ?", `sub-${fault}`)).toBeUndefined();
    });
  }

  test("a callback is used once; a state from another browser or a GitHub state is refused", async () => {
    const session = new ApiSession(server.url);
    const first = await oidcSignIn({ sub: "sub-once", preferred_username: "once" }, session);
    expect(first.body.success).toBe(true);
    const replay = await new ApiSession(server.url).get(`/api/oauth/oidc${first.callback}`);
    expect(replay.status).toBe(403);
    expect(replay.body.message).toBe("state 为空或不一致");
    // A state issued for GitHub never completes an OIDC sign-in.
    const browser = new ApiSession(server.url);
    const githubState = (await browser.get("/api/oauth/state")).body.data;
    const mixed = await browser.get(`/api/oauth/oidc?code=whatever&state=${githubState}`);
    expect(mixed.body.message).toBe("state 为空或不一致");
  });

  test("registration switched off: a new person is refused, a bound one still signs in", async () => {
    await setOptions(["RegisterEnabled", "false"]);
    try {
      expect((await oidcSignIn({ sub: "sub-late", preferred_username: "late" })).body.message).toBe("管理员关闭了新用户注册");
      expect((await oidcSignIn({ sub: "sub-alice" })).body.success).toBe(true);
    } finally {
      await setOptions(["RegisterEnabled", "true"]);
    }
  });

  test("an account with two-factor is asked for its second step after the provider", async () => {
    const session = new ApiSession(server.url);
    expect((await oidcSignIn({ sub: "sub-2fa", preferred_username: "oidc2fa" }, session)).body.success).toBe(true);
    await enableTwoFactor(session);
    const second = new ApiSession(server.url);
    const result = await oidcSignIn({ sub: "sub-2fa" }, second);
    expect(result.body).toEqual({ success: true, message: "", data: { require_2fa: true } });
    expect(second.cookie).toBe("");
  });
});

describe("binding", () => {
  test("a signed-in user binds an OIDC account, signs in with it, and unbinds it", async () => {
    const user = await newUserSession(server.url, "binder");
    const bound = await oidcSignIn({ sub: "sub-binder", preferred_username: "someone" }, user);
    expect(bound.body).toEqual({ success: true, message: "bind" });
    expect((await userRow("username = ?", "binder"))!.oidc_id).toBe("sub-binder");
    const viaOidc = await oidcSignIn({ sub: "sub-binder" });
    expect(viaOidc.body.data.username).toBe("binder");
    // Bound to another account already: refused.
    const other = await newUserSession(server.url, "binder2");
    expect((await oidcSignIn({ sub: "sub-binder" }, other)).body.message).toBe("该 OIDC 账户已被绑定");
    expect((await user.delete("/api/oauth/oidc/bind")).body).toEqual({ success: true, message: "解绑成功" });
    expect((await userRow("username = ?", "binder"))!.oidc_id).toBe("");
    expect((await user.delete("/api/oauth/oidc/bind")).body.message).toBe("未绑定该账户");
  });

  test("an account whose only way in is OIDC cannot unbind it", async () => {
    const session = new ApiSession(server.url);
    await oidcSignIn({ sub: "sub-only", preferred_username: "onlyoidc" }, session);
    expect((await session.delete("/api/oauth/oidc/bind")).body.message).toBe("这是该账户唯一的登录方式，无法解绑");
  });

  test("a provider account carrying a victim's e-mail never reaches the victim's account", async () => {
    const victim = await newUserSession(server.url, "victim");
    await server.store.query("update users set email = ? where username = ?", "victim@example.com", "victim");
    const attacker = new ApiSession(server.url);
    const result = await oidcSignIn(
      { sub: "attacker-sub", preferred_username: "victim", email: "victim@example.com", email_verified: true },
      attacker,
    );
    expect(result.body.success).toBe(true);
    expect(result.body.data.id).not.toBe(victim.userId);
    expect(result.body.data.username).not.toBe("victim");
    const created = await userRow("oidc_id = ?", "attacker-sub");
    expect(created!.email).toBe("");
    expect((await userRow("username = ?", "victim"))!.oidc_id).toBe("");
  });
});
