// GET /metrics: off unless enabled, bearer-protected, Prometheus text; after real traffic it
// counts requests by face, route pattern, model, channel and status, relay latency and time to
// first token, upstream failures by class, streams, the ledger and quota, and cache sizes; and
// no label ever carries a raw path, a model nobody configured, or a user.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import OpenAI from "openai";
import { addChannel, addToken, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { rootSession } from "../helpers/api-session.ts";
import { startTestServer } from "../helpers/test-server.ts";

const token = "metrics-secret-0123456789";

function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    if (Object.entries(labels).every(([label, value]) => line.includes(`${label}="${value}"`)))
      return Number(line.slice(line.lastIndexOf(" ") + 1));
  }
  return undefined;
}

describe("metrics disabled (the default)", () => {
  test("/metrics does not exist", async () => {
    const server = await startTestServer();
    try {
      expect((await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe("metrics switched on by the MetricsEnabled option", () => {
  test("needs a token of 16 characters, opens with it at once, hides it, and closes again", async () => {
    const server = await startTestServer();
    try {
      const root = await rootSession(server.url);
      const put = async (changes: { key: string; value: unknown }[]) => (await root.put("/api/option/", changes)).body;
      const scrape = (authorization?: string) => fetch(`${server.url}/metrics`, { headers: authorization ? { authorization } : {} });
      const optionToken = "option-metrics-token-42";

      expect(await put([{ key: "MetricsEnabled", value: true }])).toEqual({
        success: false,
        message: "无法启用指标接口，请先填入指标接口的访问令牌！",
      });
      expect(await put([{ key: "MetricsToken", value: "too-short" }])).toEqual({
        success: false,
        message: "配置项 MetricsToken 至少需要 16 个字符",
      });
      expect((await scrape(`Bearer ${optionToken}`)).status).toBe(404);

      expect(
        (
          await put([
            { key: "MetricsToken", value: optionToken },
            { key: "MetricsEnabled", value: true },
          ])
        ).success,
      ).toBe(true);
      expect((await scrape()).status).toBe(401);
      expect((await scrape(`Bearer ${token}`)).status).toBe(401);
      const open = await scrape(`Bearer ${optionToken}`);
      expect(open.status).toBe(200);
      expect(await open.text()).toContain("# TYPE switchyard_requests_total counter");

      // The token is a secret: the option list never shows it back.
      const listed = (await root.get("/api/option/")).body.data as { key: string; value: string }[];
      expect(listed.find((option) => option.key === "MetricsEnabled")?.value).toBe("true");
      expect(listed.some((option) => option.key === "MetricsToken")).toBe(false);
      expect(JSON.stringify(listed)).not.toContain(optionToken);

      expect((await put([{ key: "MetricsEnabled", value: false }])).success).toBe(true);
      expect((await scrape(`Bearer ${optionToken}`)).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});

describe("metrics enabled", () => {
  let world: RelayWorld;
  let client: OpenAI;
  let goodChannel: number;
  let badChannel: number;

  beforeAll(async () => {
    world = await startRelayWorld({ METRICS_ENABLED: "true", METRICS_TOKEN: token });
    goodChannel = await addChannel(world, { key: "sk-good", models: "gpt-4o-mini" });
    badChannel = await addChannel(world, { key: "sk-failing", models: "gpt-4o", auto_ban: 0 });
    world.upstream.behave("sk-failing", { status: 500 });
    const { key } = await addToken(world.root);
    client = new OpenAI({ apiKey: `sk-${key}`, baseURL: `${world.server.url}/v1`, maxRetries: 0 });
  });
  afterAll(async () => {
    await world.stop();
  });

  const scrape = async (authorization?: string) =>
    fetch(`${world.server.url}/metrics`, { headers: authorization ? { authorization } : {} });

  test("only the bearer token opens it", async () => {
    expect((await scrape()).status).toBe(401);
    expect((await scrape("Bearer wrong-token-0123456789")).status).toBe(401);
    expect((await scrape(token)).status).toBe(401);
    const answer = await scrape(`Bearer ${token}`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toContain("text/plain");
    expect(await answer.text()).toContain("# TYPE switchyard_requests_total counter");
  });

  test("real traffic shows up with bounded labels", async () => {
    await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    const stream = await client.chat.completions.create({
      model: "gpt-4o-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: true,
    });
    for await (const _chunk of stream);
    const failed = await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }).then(
      () => null,
      (error) => error,
    );
    expect(failed?.status).toBe(500);
    const unknown = await client.chat.completions.create({ model: "made-up-model-7f3a", messages: [{ role: "user", content: "x" }] }).then(
      () => null,
      (error) => error,
    );
    expect(unknown?.status).toBe(404);
    await fetch(`${world.server.url}/no/such/page-9c1e`);
    await world.root.get("/api/token/12345");

    const text = await (await scrape(`Bearer ${token}`)).text();
    const chat = { face: "relay", route: "/v1/chat/completions", model: "gpt-4o-mini", channel: String(goodChannel), status: "200" };
    expect(sample(text, "switchyard_requests_total", chat)).toBe(2);
    expect(
      sample(text, "switchyard_requests_total", {
        route: "/v1/chat/completions",
        model: "gpt-4o",
        channel: String(badChannel),
        status: "500",
      }),
    ).toBe(1);
    expect(sample(text, "switchyard_requests_total", { face: "console", route: "/*", status: "404" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "switchyard_requests_total", { face: "api", route: "/api/token/:id" })).toBe(1);
    expect(sample(text, "switchyard_relay_duration_seconds_count", { endpoint: "chat", model: "gpt-4o-mini" })).toBe(2);
    expect(sample(text, "switchyard_relay_first_token_seconds_count", { endpoint: "chat", model: "gpt-4o-mini" })).toBe(1);
    expect(sample(text, "switchyard_relay_first_token_seconds_bucket", { le: "+Inf" })).toBe(1);
    expect(sample(text, "switchyard_upstream_errors_total", { class: "server_error", channel: String(badChannel) })).toBe(1);
    expect(sample(text, "switchyard_quota_consumed_total", { model: "gpt-4o-mini", channel: String(goodChannel) })).toBeGreaterThan(0);
    expect(sample(text, "switchyard_relay_streams_in_flight")).toBe(0);
    // Only settlements are written in batches (holds are reservations outside the store): two served.
    expect(sample(text, "switchyard_ledger_batch_size_count")).toBeGreaterThanOrEqual(2);
    expect(sample(text, "switchyard_ledger_commit_seconds_count")).toBeGreaterThanOrEqual(2);
    expect(sample(text, "switchyard_cache_entries", { cache: "tokens" })).toBeGreaterThanOrEqual(1);
    expect(sample(text, "switchyard_cache_entries", { cache: "channels" })).toBe(2);
    expect(text).toContain("switchyard_process_resident_memory_bytes");
    // Nothing unbounded: no raw paths, no model nobody configured, no user ids or names.
    // (Only the labels are searched: a sample's value may contain the digits by chance.)
    const labels = text
      .split("\n")
      .filter((line) => !line.startsWith("#"))
      .map((line) => /\{(.*)\}/.exec(line)?.[1] ?? "")
      .join("\n");
    expect(labels).toContain('route="/api/token/:id"');
    expect(labels).not.toContain("page-9c1e");
    expect(labels).not.toContain("12345");
    expect(text).not.toContain("made-up-model");
    expect(text).not.toMatch(/user(_id|name)?="/);
  });
});
