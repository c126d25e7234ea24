// GitHub and LinuxDO sign-in and binding against a local imitation of their token and user
// endpoints: the server-checked single-use state, forged and replayed states, reused codes,
// accounts bound elsewhere, the switches, and invite rewards for accounts created this way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startIdentityProviders, type GitHubPerson, type IdentityProviders } from "../helpers/identity-providers.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
let providers: IdentityProviders;
beforeAll(async () => {
  providers = startIdentityProviders();
  server = await startTestServer({ env: providers.env });
  root = await rootSession(server.url);
  expect((await root.put("/api/option/", providers.options)).body.success).toBe(true);
});
afterAll(async () => {
  await server.stop();
  providers.stop();
});

const setOptions = async (...entries: [string, string][]) => {
  const result = await root.put(
    "/api/option/",
    entries.map(([key, value]) => ({ key, value })),
  );
  expect(result.body.success).toBe(true);
};
const stateFor = async (session: ApiSession, aff = "") => {
  const result = await session.get(`/api/oauth/state${aff ? `?aff=${aff}` : ""}`);
  expect(result.body.success).toBe(true);
  return result.body.data as string;
};
const githubSignIn = async (person: GitHubPerson, session = new ApiSession(server.url), aff = "") => {
  const state = await stateFor(session, aff);
  const result = await session.get(`/api/oauth/github?code=${providers.githubCode(person)}&state=${state}`);
  if (result.body.success && result.body.data?.id) session.userId = result.body.data.id;
  return result;
};
const userRow = async (where: string, ...params: unknown[]) =>
  (await server.store.query<Record<string, any>>(`select * from users where ${where}`, ...params))[0];

describe("switches", () => {
  test("a disabled provider refuses the callback, and cannot be enabled without its credentials", async () => {
    const result = await githubSignIn({ id: 1, login: "early" });
    expect(result.body).toEqual({ success: false, message: "管理员未开启通过 GitHub 登录以及注册" });
    const linuxdo = new ApiSession(server.url);
    const state = await stateFor(linuxdo);
    expect(
      (await linuxdo.get(`/api/oauth/linuxdo?code=${providers.linuxdoCode({ id: 1, username: "x" })}&state=${state}`)).body.message,
    ).toBe("管理员未开启通过 Linux DO 登录以及注册");
    await setOptions(["GitHubClientSecret", ""]);
    expect((await root.put("/api/option/", { key: "GitHubOAuthEnabled", value: "true" })).body.message).toBe(
      "无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！",
    );
    expect((await root.put("/api/option/", providers.options)).body.success).toBe(true);
    await setOptions(["GitHubOAuthEnabled", "true"], ["LinuxDOOAuthEnabled", "true"]);
    const status = (await new ApiSession(server.url).get("/api/status")).body.data;
    expect(status.github_oauth).toBe(true);
    expect(status.github_client_id).toBe("gh-client-id");
    expect(status.linuxdo_oauth).toBe(true);
  });
});

describe("GitHub sign-in", () => {
  test("a first sign-in creates an account with the invite code, credited once; later ones sign in", async () => {
    await setOptions(["QuotaForNewUser", "100"], ["QuotaForInviter", "1000"], ["QuotaForInvitee", "500"]);
    const host = await newUserSession(server.url, "octohost");
    const aff = (await host.get("/api/user/aff")).body.data as string;
    const octocat: GitHubPerson = { id: 583231, login: "octocat", name: "The Octocat", email: "Octocat@GitHub.example" };

    const session = new ApiSession(server.url);
    const first = await githubSignIn(octocat, session, aff);
    expect(first.body.success).toBe(true);
    expect(first.body.message).toBe("登录成功！");
    expect(first.body.data.username).toMatch(/^github_\d+$/);
    expect(first.body.data.display_name).toBe("The Octocat");
    expect(Object.keys(first.body.data).sort()).toEqual(["display_name", "group", "id", "role", "status", "username"]);
    // The session works like a password sign-in's.
    const self = await session.get("/api/user/self");
    expect(self.body.data.github_id).toBe("583231");
    expect(self.body.data.email).toBe("octocat@github.example");

    const created = await userRow("github_id = ?", "583231");
    const hostRow = await userRow("username = ?", "octohost");
    expect(Number(created!.inviter_id)).toBe(Number(hostRow!.id));
    expect(Number(created!.quota)).toBe(600);
    expect(Number(hostRow!.aff_count)).toBe(1);
    expect(Number(hostRow!.aff_quota)).toBe(1000);
    expect(Number(hostRow!.aff_history_quota)).toBe(1000);

    const again = await githubSignIn(octocat, new ApiSession(server.url), aff);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await server.store.query("select id from users where github_id = ?", "583231")).toHaveLength(1);
    const hostAfter = await userRow("username = ?", "octohost");
    expect(Number(hostAfter!.aff_count)).toBe(1);
    expect(Number(hostAfter!.aff_quota)).toBe(1000);
    expect(Number((await userRow("github_id = ?", "583231"))!.quota)).toBe(600);
    await setOptions(["QuotaForNewUser", "0"], ["QuotaForInviter", "0"], ["QuotaForInvitee", "0"]);
  });

  test("a forged, foreign, missing or replayed state is refused with 403", async () => {
    const person = { id: 7001, login: "forger" };
    const session = new ApiSession(server.url);
    await stateFor(session);
    const forged = await session.get(`/api/oauth/github?code=${providers.githubCode(person)}&state=forged-state-value`);
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ success: false, message: "state 为空或不一致" });
    expect((await session.get(`/api/oauth/github?code=${providers.githubCode(person)}`)).status).toBe(403);

    // A state issued to another browser (its cookie is not here) does not work here.
    const other = new ApiSession(server.url);
    const foreignState = await stateFor(other);
    expect(
      (await new ApiSession(server.url).get(`/api/oauth/github?code=${providers.githubCode(person)}&state=${foreignState}`)).status,
    ).toBe(403);

    const state = await stateFor(session);
    const used = await session.get(`/api/oauth/github?code=${providers.githubCode(person)}&state=${state}`);
    expect(used.body.success).toBe(true);
    // Replaying the same state (the browser still sends it) is refused.
    session.otherCookies.set("oauth_state", `oauth_state=${state}`);
    const replay = await session.get(`/api/oauth/github?code=${providers.githubCode(person)}&state=${state}`);
    expect(replay.status).toBe(403);
    expect(await server.store.query("select id from users where github_id = ?", "7001")).toHaveLength(1);
  });

  test("an expired state is refused", async () => {
    const session = new ApiSession(server.url);
    const state = await stateFor(session);
    await server.store.query("update verifications set expires_at = created_at where purpose = 'oauth_state'");
    expect((await session.get(`/api/oauth/github?code=${providers.githubCode({ id: 7002, login: "late" })}&state=${state}`)).status).toBe(
      403,
    );
  });

  test("a reused authorization code is refused by the provider, and that is said clearly", async () => {
    const session = new ApiSession(server.url);
    const code = providers.githubCode({ id: 7003, login: "reuser" });
    expect((await session.get(`/api/oauth/github?code=${code}&state=${await stateFor(session)}`)).body.success).toBe(true);
    const again = await session.get(`/api/oauth/github?code=${code}&state=${await stateFor(session)}`);
    expect(again.body).toEqual({ success: false, message: "GitHub 授权失败，请重新登录" });
    expect((await session.get(`/api/oauth/github?state=${await stateFor(session)}`)).body.message).toBe("无效的参数");
  });

  test("banned and deleted accounts cannot sign in; closed registration creates nobody", async () => {
    const banned = await githubSignIn({ id: 7004, login: "banned" });
    await server.store.query("update users set status = 2 where id = ?", banned.body.data.id);
    expect((await githubSignIn({ id: 7004, login: "banned" })).body).toEqual({ success: false, message: "用户已被封禁" });
    const deleted = await githubSignIn({ id: 7005, login: "deleted" });
    await server.store.query("update users set deleted_at = 1 where id = ?", deleted.body.data.id);
    expect((await githubSignIn({ id: 7005, login: "deleted" })).body).toEqual({ success: false, message: "用户已注销" });
    await setOptions(["RegisterEnabled", "false"]);
    expect((await githubSignIn({ id: 7006, login: "newcomer" })).body).toEqual({ success: false, message: "管理员关闭了新用户注册" });
    expect(await server.store.query("select id from users where github_id = ?", "7006")).toHaveLength(0);
    await setOptions(["RegisterEnabled", "true"]);
  });

  test("a binding made by new-api (the GitHub login) is found and moved to the stable id", async () => {
    const legacy = await newUserSession(server.url, "legacyuser");
    await server.store.query("update users set github_id = ? where username = ?", "old-login", "legacyuser");
    const result = await githubSignIn({ id: 424242, login: "old-login" });
    expect(result.body.data.id).toBe(legacy.userId);
    expect((await userRow("username = ?", "legacyuser"))!.github_id).toBe("424242");
  });
});

describe("binding", () => {
  test("a signed-in user binds GitHub; the message is 'bind'", async () => {
    const user = await newUserSession(server.url, "binder");
    const result = await githubSignIn({ id: 8001, login: "binder-gh" }, user);
    expect(result.body).toEqual({ success: true, message: "bind" });
    expect((await user.get("/api/user/self")).body.data.github_id).toBe("8001");
  });

  test("a GitHub account bound to another user is refused", async () => {
    const user = await newUserSession(server.url, "binder2");
    const result = await githubSignIn({ id: 8001, login: "binder-gh" }, user);
    expect(result.body).toEqual({ success: false, message: "该 GitHub 账户已被绑定" });
    expect((await user.get("/api/user/self")).body.data.github_id).toBe("");
  });

  test("a bind state cannot be finished by a different signed-in user", async () => {
    const owner = await newUserSession(server.url, "binder3");
    const state = await stateFor(owner);
    const intruder = await newUserSession(server.url, "binder4");
    intruder.otherCookies.set("oauth_state", `oauth_state=${state}`);
    const result = await intruder.get(`/api/oauth/github?code=${providers.githubCode({ id: 8003, login: "x" })}&state=${state}`);
    expect(result.body).toEqual({ success: false, message: "state 为空或不一致" });
    expect(await server.store.query("select id from users where github_id = ?", "8003")).toHaveLength(0);
  });
});

describe("LinuxDO", () => {
  test("signs in (creating the account), and refuses a bind of an account bound elsewhere", async () => {
    const session = new ApiSession(server.url);
    const state = await stateFor(session);
    const code = providers.linuxdoCode({ id: 9001, username: "ldfan", name: "LD Fan" });
    const result = await session.get(`/api/oauth/linuxdo?code=${code}&state=${state}`);
    expect(result.body.success).toBe(true);
    expect(result.body.data.username).toMatch(/^linuxdo_\d+$/);
    expect(result.body.data.display_name).toBe("LD Fan");
    // The token request used HTTP Basic with the client credentials, like LinuxDO wants.
    expect(providers.calls.some((call) => call.path === "/linuxdo/oauth2/token" && call.authorization.startsWith("Basic "))).toBe(true);

    const other = await newUserSession(server.url, "ldbinder");
    const bindState = await stateFor(other);
    const bind = await other.get(`/api/oauth/linuxdo?code=${providers.linuxdoCode({ id: 9001, username: "ldfan" })}&state=${bindState}`);
    expect(bind.body).toEqual({ success: false, message: "该 Linux DO 账户已被绑定" });
    const ownState = await stateFor(other);
    const own = await other.get(`/api/oauth/linuxdo?code=${providers.linuxdoCode({ id: 9002, username: "ld2" })}&state=${ownState}`);
    expect(own.body).toEqual({ success: true, message: "bind" });
  });

  test("an unknown provider is not an endpoint", async () => {
    const result = await new ApiSession(server.url).get("/api/oauth/myspace?code=x&state=y");
    expect(result.status).toBe(404);
  });
});

describe("the first password of an account created by GitHub (issue 15 §3)", () => {
  test("has none, says so, and sets one through its own flow once", async () => {
    await setOptions(["GitHubOAuthEnabled", "true"]);
    const session = new ApiSession(server.url);
    const signedIn = await githubSignIn({ id: 770001, login: "nopass" }, session);
    expect(signedIn.body.success).toBe(true);
    const username = signedIn.body.data.username as string;
    expect((await userRow("username = ?", username))!.password).toBe("");
    // Neither a password sign-in nor the change form works without a password.
    expect((await new ApiSession(server.url).login(username, "")).body.success).toBe(false);
    expect((await session.put("/api/user/self", { password: "firstpassword", original_password: "guess" })).body).toEqual({
      success: false,
      message: "该账户还没有密码，请先设置密码",
    });
    const mismatch = await session.post("/api/user/self/password", { password: "firstpassword", password2: "other-password" });
    expect(mismatch.body).toEqual({ success: false, message: "两次输入的密码不一致！" });
    const set = await session.post("/api/user/self/password", { password: "firstpassword", password2: "firstpassword" });
    expect(set.body.success).toBe(true);
    expect(set.body.message).toBe("密码设置成功！");
    // This session goes on; the password signs in; the flow is used up.
    expect((await session.get("/api/user/self")).status).toBe(200);
    expect((await new ApiSession(server.url).login(username, "firstpassword")).body.success).toBe(true);
    expect((await session.post("/api/user/self/password", { password: "secondpassword" })).body).toEqual({
      success: false,
      message: "该账户已有密码，请使用修改密码",
    });
  });
});
