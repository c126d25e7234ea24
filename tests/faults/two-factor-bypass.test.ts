// Two-factor bypass attempts (issue 28; reliability plan §4.4): an attacker who has a victim's
// password, or an account at the site's OpenID Connect provider carrying the victim's e-mail,
// tries to get past the second step. Each attempt is refused and leaves no session:
//   - skipping the second step: calling /api and pages with the first step's cookie, presenting
//     it as a session cookie, posting the second step with no code, a guessed code, another
//     account's code, or a forged passkey answer;
//   - reusing the first step's cookie after the victim completed the sign-in (a copy of it, and a
//     fresh valid code);
//   - racing two second steps with one pending sign-in and one code;
//   - an OIDC account with the victim's e-mail (verified by the provider): a new account, never
//     the victim's, and the victim's binding untouched.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startOidcIdentityProvider, type OidcIdentityProvider } from "../helpers/oidc-identity-provider.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { enableTwoFactor, type Authenticator } from "../helpers/two-factor.ts";
import { reportFigures } from "../helpers/fault-world.ts";

let server: TestServer;
let idp: OidcIdentityProvider;
let victimApp: Authenticator;
let victimId: number;
let victimName = "";
const figures = { attempts: 0, refused: 0, sessionsOfAttacker: 0 };

beforeAll(async () => {
  idp = await startOidcIdentityProvider();
  server = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
  const root = await rootSession(server.url);
  const enabled = await root.put("/api/option/", [...idp.options, { key: "OidcEnabled", value: "true" }]);
  expect(enabled.body.success).toBe(true);
});

/** A victim with two-factor on and an address; each case its own (a TOTP app gives two fresh codes per 30 s). */
async function newVictim(name: string): Promise<void> {
  const victim = await newUserSession(server.url, name);
  victimId = victim.userId!;
  victimName = name;
  await server.store.query(`update users set email = '${name}@example.com' where id = ?`, victimId);
  victimApp = (await enableTwoFactor(victim)).app;
}
afterAll(async () => {
  reportFigures("two-factor-bypass", figures);
  await server?.stop();
  idp?.stop();
});

const victimSessions = async () =>
  Number((await server.store.query<{ count: number }>("select count(*) as count from sessions where user_id = ?", victimId))[0]!.count);

/** The first step with the victim's password: the attacker holds the pending cookie. */
async function firstStep(): Promise<ApiSession> {
  const attacker = new ApiSession(server.url);
  const first = await attacker.login(victimName, "password123");
  expect(first.body).toEqual({ success: true, message: "", data: { require_2fa: true } });
  expect(attacker.otherCookies.has("login_2fa")).toBe(true);
  attacker.userId = victimId;
  return attacker;
}

function refused(condition: boolean): void {
  figures.attempts++;
  if (condition) figures.refused++;
  expect(condition).toBe(true);
}

test("skipping the second step grants nothing", async () => {
  await newVictim("victim1");
  const before = await victimSessions();
  const attacker = await firstStep();
  // The pending cookie is not a session: /api and pages treat the caller as signed out.
  refused((await attacker.get("/api/user/self")).status === 401);
  refused((await attacker.get("/api/token/?p=0")).status === 401);
  const page = await fetch(`${server.url}/token`, { headers: { cookie: attacker.otherCookies.get("login_2fa")! }, redirect: "manual" });
  refused(page.status === 302 && page.headers.get("location") === "/login");
  // Presented as the session cookie itself.
  const pending = attacker.otherCookies.get("login_2fa")!.split("=")[1]!;
  const disguised = Object.assign(new ApiSession(server.url), { cookie: `session=${pending}`, userId: victimId });
  refused((await disguised.get("/api/user/self")).status === 401);
  // The second step without a factor, with a guess, with the attacker's own account's code.
  refused((await attacker.post("/api/user/login/2fa", {})).body.message === "请输入验证码或恢复码");
  refused((await attacker.post("/api/user/login/2fa", { code: "000000" })).body.success === false);
  const own = await newUserSession(server.url, "mallory");
  const mallory = await enableTwoFactor(own);
  refused((await attacker.post("/api/user/login/2fa", { code: mallory.app.freshCode() })).body.success === false);
  // A forged passkey answer (no challenge of ours, no key of the victim's).
  const forged = {
    response: {
      id: "AAAA",
      rawId: "AAAA",
      type: "public-key",
      response: { clientDataJSON: Buffer.from(JSON.stringify({ type: "webauthn.get", challenge: "made-up" })).toString("base64url") },
    },
  };
  refused((await attacker.post("/api/user/login/2fa", forged)).body.message === "通行密钥验证失败");
  refused((await new ApiSession(server.url).post("/api/user/passkey/login", forged)).body.message === "通行密钥验证失败");
  for (const guess of ["111111", "222222"]) refused((await attacker.post("/api/user/login/2fa", { code: guess })).body.success === false);
  // Five wrong answers ended the pending sign-in: even the right code is refused now.
  refused((await attacker.post("/api/user/login/2fa", { code: victimApp.freshCode() })).body.message === "两步验证已过期，请重新登录");
  refused(attacker.cookie === "");
  expect(await victimSessions()).toBe(before);
});

test("the first step's cookie cannot be reused once the sign-in completed", async () => {
  await newVictim("victim2");
  const victim = await firstStep();
  const stolenCookie = victim.otherCookies.get("login_2fa")!;
  const completed = await victim.post("/api/user/login/2fa", { code: victimApp.freshCode() });
  expect(completed.body.success).toBe(true);
  const attacker = new ApiSession(server.url);
  attacker.otherCookies.set("login_2fa", stolenCookie);
  const before = await victimSessions();
  refused(
    (await attacker.post("/api/user/login/2fa", { code: victimApp.codeAt(victimApp.now()) })).body.message === "两步验证已过期，请重新登录",
  );
  refused(attacker.cookie === "");
  expect(await victimSessions()).toBe(before);
});

test("two second steps racing with one pending sign-in and one code: one session at most", async () => {
  await newVictim("victim3");
  const victim = await firstStep();
  const copy = new ApiSession(server.url);
  copy.otherCookies.set("login_2fa", victim.otherCookies.get("login_2fa")!);
  const code = victimApp.freshCode();
  const before = await victimSessions();
  const answers = await Promise.all([victim, copy].map((client) => client.post("/api/user/login/2fa", { code })));
  const winners = answers.filter((answer) => answer.body.success).length;
  refused(winners <= 1);
  expect(await victimSessions()).toBe(before + winners);
});

test("an OIDC account carrying the victim's e-mail is a new account, never the victim's", async () => {
  await newVictim("victim4");
  idp.signInAs({ sub: "attacker-at-idp", preferred_username: "victim4", email: "victim4@example.com", email_verified: true });
  const attacker = new ApiSession(server.url);
  const start = await attacker.get("/api/oauth/oidc/authorize");
  const redirect = await fetch(start.body.data, { redirect: "manual" });
  const back = new URL(redirect.headers.get("location")!);
  const result = await attacker.get(`/api/oauth/oidc${back.search}`);
  expect(result.body.success).toBe(true);
  refused(result.body.data.id !== victimId);
  refused(result.body.data.require_2fa === undefined);
  const [created] = await server.store.query<{ id: number; email: string; username: string }>(
    "select id, email, username from users where oidc_id = 'attacker-at-idp'",
  );
  refused(created!.id !== victimId && created!.email === "" && created!.username !== "victim4");
  const [victimRow] = await server.store.query<{ oidc_id: string; email: string }>(
    "select oidc_id, email from users where id = ?",
    victimId,
  );
  refused(victimRow!.oidc_id === "" && victimRow!.email === "victim4@example.com");
  // The attacker's session is theirs alone.
  attacker.userId = result.body.data.id;
  refused((await attacker.get("/api/user/self")).body.data.username !== "victim4");
  figures.sessionsOfAttacker = Number(
    (await server.store.query<{ count: number }>("select count(*) as count from sessions where user_id = ?", created!.id))[0]!.count,
  );
});
