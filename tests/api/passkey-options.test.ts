// The WebAuthn options the server hands out (issue 28): the relying party follows the site's
// address (ServerAddress; else X-Forwarded-Host behind a trusted proxy; else Host), registration
// asks for a discoverable credential and excludes the account's passkeys, passkey-only sign-in
// requires user verification, and answers not made for our challenges are refused. The whole
// ceremonies run in Chromium with a virtual authenticator (tests/console/passkeys.test.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

describe("relying party", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TRUST_PROXY: "true" } });
  });
  afterAll(() => server.stop());

  test("is the Host, else X-Forwarded-Host behind a trusted proxy, and ServerAddress when set", async () => {
    const session = await newUserSession(server.url, "rpuser");
    const plain = await session.post("/api/user/passkeys/options", {});
    expect(plain.body.data.rp).toEqual({ name: "Switchyard", id: "127.0.0.1" });
    expect(plain.body.data.authenticatorSelection).toMatchObject({ residentKey: "required", requireResidentKey: true });
    expect(plain.body.data.user.name).toBe("rpuser");
    const forwarded = await session.post(
      "/api/user/passkeys/options",
      {},
      { "x-forwarded-host": "gw.example.com", "x-forwarded-proto": "https" },
    );
    expect(forwarded.body.data.rp.id).toBe("gw.example.com");
    const root = await rootSession(server.url);
    expect((await root.put("/api/option/", { key: "ServerAddress", value: "https://id.example.org:8443" })).body.success).toBe(true);
    const configured = await session.post("/api/user/passkeys/options", {}, { "x-forwarded-host": "gw.example.com" });
    expect(configured.body.data.rp.id).toBe("id.example.org");
    const login = await new ApiSession(server.url).post("/api/user/passkey/login/options", {});
    expect(login.body.data.rpId).toBe("id.example.org");
    expect(login.body.data.userVerification).toBe("required");
    expect(login.body.data.allowCredentials).toEqual([]);
  });

  test("answers to challenges we never issued are refused", async () => {
    const session = await newUserSession(server.url, "rpforged");
    const forged = {
      name: "x",
      response: {
        id: "AAAA",
        rawId: "AAAA",
        type: "public-key",
        response: {
          clientDataJSON: Buffer.from(JSON.stringify({ type: "webauthn.create", challenge: "never-issued" })).toString("base64url"),
        },
      },
    };
    expect((await session.post("/api/user/passkeys", forged)).body).toEqual({ success: false, message: "通行密钥验证失败" });
    expect((await session.post("/api/user/passkeys", { name: "x" })).body.message).toBe("无效的参数");
    expect((await session.get("/api/user/passkeys")).body.data).toEqual([]);
    // The second step's passkey options need a pending sign-in.
    expect((await new ApiSession(server.url).post("/api/user/login/2fa/passkey", {})).body.message).toBe("两步验证已过期，请重新登录");
  });
});
