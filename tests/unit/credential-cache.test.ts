// Exchanged credentials: one exchange for concurrent calls, reuse until shortly before expiry, a
// refused exchange as a typed error with the provider's status, and forgetting on demand.
import { afterAll, describe, expect, test } from "bun:test";
import type { CredentialExchange, UpstreamTarget } from "../../src/relay/providers/adaptor.ts";
import {
  CredentialExchangeError,
  credentialFor,
  forgetCredential,
  targetWithCredential,
} from "../../src/relay/upstream/credential-cache.ts";

let exchanges = 0;
let lifetime = 3600;
const server = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  async fetch(request) {
    exchanges++;
    const { secret } = (await request.json()) as { secret: string };
    await Bun.sleep(20);
    if (secret === "bad") return Response.json({ error: "invalid_client" }, { status: 401 });
    if (secret === "refused-in-200") return Response.json({ error_description: "unknown client" });
    return Response.json({ access_token: `token-${exchanges}`, expires_in: lifetime });
  },
});
afterAll(() => server.stop(true));

const exchange: CredentialExchange = {
  cacheKey: (target) => target.key,
  request: (target) => ({
    url: server.url.href,
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ secret: target.key }),
  }),
  parse(body, now) {
    const parsed = JSON.parse(body) as { access_token?: string; expires_in?: number };
    if (!parsed.access_token) throw new Error("no token");
    return { value: parsed.access_token, expiresAt: now + (parsed.expires_in ?? 0) };
  },
};
const target = (key: string): UpstreamTarget => ({ id: 1, type: 99, key, baseUrl: "", other: "", organization: "", setting: {} });

describe("credential cache", () => {
  test("concurrent calls share one exchange, later calls reuse the credential", async () => {
    exchanges = 0;
    const values = await Promise.all(Array.from({ length: 20 }, () => credentialFor(exchange, target("good-1"))));
    expect(new Set(values)).toEqual(new Set(["token-1"]));
    expect(await credentialFor(exchange, target("good-1"))).toBe("token-1");
    expect(exchanges).toBe(1);
    expect((await targetWithCredential({ credential: exchange }, target("good-1"))).credential).toBe("token-1");
  });

  test("forgetting a credential makes the next call exchange again", async () => {
    exchanges = 0;
    await credentialFor(exchange, target("good-2"));
    forgetCredential(exchange, target("good-2"));
    expect(await credentialFor(exchange, target("good-2"))).toBe("token-2");
    expect(exchanges).toBe(2);
  });

  test("a credential about to expire is renewed rather than used", async () => {
    exchanges = 0;
    lifetime = 60; // inside the renewal margin
    await credentialFor(exchange, target("short"));
    await credentialFor(exchange, target("short"));
    expect(exchanges).toBe(2);
    lifetime = 3600;
  });

  test("a refused exchange is an error carrying the provider's status and answer, and is not cached", async () => {
    const refusal = await credentialFor(exchange, target("bad")).catch((error) => error);
    expect(refusal).toBeInstanceOf(CredentialExchangeError);
    expect(refusal.status).toBe(401);
    expect(refusal.body).toContain("invalid_client");
    const inBody = await credentialFor(exchange, target("refused-in-200")).catch((error) => error);
    expect(inBody.status).toBe(401);
    expect(inBody.body).toContain("unknown client");
  });

  test("an unreachable provider is status 0 with a sanitised reason", async () => {
    const unreachable: CredentialExchange = {
      ...exchange,
      request: () => ({ url: "http://127.0.0.1:1/token", method: "POST", headers: {} }),
    };
    const error = await credentialFor(unreachable, target("x")).catch((caught) => caught);
    expect(error.status).toBe(0);
    expect(error.body).not.toContain("127.0.0.1");
  });
});
