// A token's budget per period and its rate and concurrency limits (issue 27), through the real
// relay: 100 calls at once never get more admitted than the limit allows, on one instance and on
// two sharing PostgreSQL and Redis; every refusal is a 429 with Retry-After and its code; periods
// start over at the boundary of the gateway's time zone (a server whose clock the test shifts);
// the official client retries as the Retry-After says; the ledger invariants hold throughout.
// An upstream that reports more tokens than a call allowed (or a call without max_tokens) never
// takes a period past its budget: 50 calls at once end with the period's sum exactly at the
// budget, the rest of their cost on their logs as uncollected, for the period.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import OpenAI from "openai";
import { rootSession, type ApiSession } from "../helpers/api-session.ts";
import { checkLedger, ledgerCheckEnv } from "../helpers/ledger-invariants.ts";
import { addToken, n, startRelayWorld, type RelayWorld } from "../helpers/relay-world.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, testDialect, type TestStore } from "../helpers/test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { sharedRedisEnv } from "../helpers/shared-redis-env.ts";

setDefaultTimeout(120_000);

const model = "fixed-limit-model";
const price = 10_000; // $0.02 at 500,000 per dollar: the hold and the charge of every call
/** Priced by ModelRatio 10 and CompletionRatio 1; its upstream reports 10 + 600 tokens whatever max_tokens says. */
const overModel = "over-limit-model";
const overCost = (10 + 600) * 10;

/** Gateways on one store, one upstream, root's session on the first. */
type Cluster = { urls: string[]; store: TestStore; upstream: Upstream; root: ApiSession };

type Outcome = {
  status: number;
  code: string | null;
  retryAfter: string | null;
  usage?: { prompt_tokens: number; completion_tokens: number };
};

async function call(url: string, key: string, body: Record<string, unknown> = {}): Promise<Outcome> {
  const response = await fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer sk-${key}` },
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 5, ...body }),
  });
  const json = (await response.json()) as any;
  return { status: response.status, code: json.error?.code ?? null, retryAfter: response.headers.get("retry-after"), usage: json.usage };
}

/** `count` calls at once, spread over the cluster's gateways in turn. */
const burst = (cluster: Cluster, key: string, count = 100, body?: Record<string, unknown>) =>
  Promise.all(Array.from({ length: count }, (_, index) => call(cluster.urls[index % cluster.urls.length]!, key, body)));

function expectRefusals(outcomes: Outcome[], code: string, maxSeconds: number) {
  const refused = outcomes.filter((outcome) => outcome.status !== 200);
  for (const outcome of refused) {
    expect(outcome).toMatchObject({ status: 429, code });
    const seconds = Number(outcome.retryAfter);
    expect(seconds).toBeGreaterThanOrEqual(1);
    expect(seconds).toBeLessThanOrEqual(maxSeconds);
  }
  return refused.length;
}

async function tokenWith(cluster: Cluster, name: string, limits: Record<string, unknown>) {
  return addToken(cluster.root, { name, ...limits } as never);
}

async function tokenView(cluster: Cluster, id: number) {
  const result = await cluster.root.get(`/api/token/${id}`);
  expect(result.body.success).toBe(true);
  return result.body.data;
}

function limitCases(name: string, cluster: () => Cluster) {
  describe(name, () => {
    test("a day's budget: 100 calls at once, exactly what the period covers is admitted", async () => {
      const c = cluster();
      await clearOfUtcMidnight();
      const token = await tokenWith(c, `${name}-budget`, { quota_period: "day", period_quota: 5 * price + price / 2 });
      const outcomes = await burst(c, token.key);
      expect(outcomes.filter((outcome) => outcome.status === 200)).toHaveLength(5);
      const untilMidnight = Math.ceil((Date.UTC(...nextUtcDay()) - Date.now()) / 1000) + 5;
      expect(expectRefusals(outcomes, "token_period_quota_exhausted", untilMidnight)).toBe(95);
      const view = await tokenView(c, token.id);
      expect(n(view.period_used_quota)).toBe(5 * price);
      expect(n(view.used_quota)).toBe(5 * price);
      expect(n(view.period_reset_at)).toBe(Date.UTC(...nextUtcDay()) / 1000);
      await checkLedgerOf(c);
    }, 180_000);

    test("requests per minute: 100 calls at once, the limit's number admitted", async () => {
      const c = cluster();
      const token = await tokenWith(c, `${name}-rpm`, { rpm_limit: 7 });
      const outcomes = await burst(c, token.key);
      expect(outcomes.filter((outcome) => outcome.status === 200)).toHaveLength(7);
      expect(expectRefusals(outcomes, "token_rpm_limited", 60)).toBe(93);
      await checkLedgerOf(c);
    });

    test("tokens per minute: the admitted calls' settled tokens never pass the limit", async () => {
      const c = cluster();
      const limit = 300;
      const token = await tokenWith(c, `${name}-tpm`, { tpm_limit: limit });
      // A prompt of 60 bytes has at most 60 tokens: the upstream's 10 is an honest count.
      const outcomes = await burst(c, token.key, 100, { messages: [{ role: "user", content: "x ".repeat(30) }] });
      const admitted = outcomes.filter((outcome) => outcome.status === 200);
      expect(admitted.length).toBeGreaterThanOrEqual(2);
      const used = admitted.reduce((sum, outcome) => sum + outcome.usage!.prompt_tokens + outcome.usage!.completion_tokens, 0);
      expect(used).toBeLessThanOrEqual(limit);
      expect(expectRefusals(outcomes, "token_tpm_limited", 60)).toBe(100 - admitted.length);
      const [logged] = await c.store.query<{ tokens: number }>(
        "select coalesce(sum(prompt_tokens + completion_tokens), 0) as tokens from logs where token_id = ?",
        token.id,
      );
      expect(n(logged!.tokens)).toBe(used);
      await checkLedgerOf(c);
    });

    test("concurrency: never more in flight than the limit", async () => {
      const c = cluster();
      const token = await tokenWith(c, `${name}-conc`, { concurrency_limit: 3 });
      c.upstream.reset();
      behave(c.upstream);
      const outcomes = await burst(c, token.key, 100, { model: "slow-limit-model" });
      const admitted = outcomes.filter((outcome) => outcome.status === 200).length;
      expect(admitted).toBeGreaterThanOrEqual(3);
      expect(c.upstream.mostAtOnce()).toBeLessThanOrEqual(3);
      expect(expectRefusals(outcomes, "token_concurrency_limited", 1)).toBe(100 - admitted);
      // Every slot came back: three at once again. A slot is given back as its answer leaves, so
      // the next burst may come a moment before the last release: tried until it lands.
      let again = await burst(c, token.key, 3, { model: "slow-limit-model" });
      for (const deadline = Date.now() + 5000; again.some((outcome) => outcome.status !== 200) && Date.now() < deadline; )
        again = await burst(c, token.key, 3, { model: "slow-limit-model" });
      expect(again.map((outcome) => outcome.status)).toEqual([200, 200, 200]);
      await checkLedgerOf(c);
    });

    test("the official client waits as Retry-After says and gets through", async () => {
      const c = cluster();
      const token = await tokenWith(c, `${name}-sdk`, { concurrency_limit: 1 });
      let attempts = 0;
      const client = (maxRetries: number) =>
        new OpenAI({
          baseURL: `${c.urls.at(-1)}/v1`,
          apiKey: `sk-${token.key}`,
          maxRetries,
          fetch: (input, init) => {
            attempts++;
            return fetch(input as string, init as RequestInit);
          },
        });
      // The slow call holds the token's one slot once the upstream has it (a fixed pause was
      // too short for two instances on a busy machine).
      const slowArrived = async (before: number) => {
        for (let tries = 0; tries < 300 && c.upstream.receivedBy("sk-limits-slow").length <= before; tries++) await Bun.sleep(10);
      };
      const slowBefore = c.upstream.receivedBy("sk-limits-slow").length;
      const slow = call(c.urls[0]!, token.key, { model: "slow-limit-model" });
      await slowArrived(slowBefore);
      const startedAt = Date.now();
      // The slot is free once the slow call is answered and settled: on a busy machine that may
      // take longer than the first wait of a second, and the client then waits again.
      const answer = await client(4).chat.completions.create({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 5 });
      expect(answer.choices[0]!.message.content).toBeTruthy();
      expect(attempts).toBeGreaterThanOrEqual(2);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(900 * (attempts - 1));
      expect((await slow).status).toBe(200);

      // Without retries the refusal reaches the caller with its code and Retry-After.
      attempts = 0;
      // Held long enough for the refused call to arrive while it runs, however busy the machine.
      c.upstream.behave("sk-limits-slow", { delayMs: 3000, promptTokens: 10, completionTokens: 5 });
      const heldBefore = c.upstream.receivedBy("sk-limits-slow").length;
      const held = call(c.urls[0]!, token.key, { model: "slow-limit-model" });
      await slowArrived(heldBefore);
      const error = await client(0)
        .chat.completions.create({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 5 })
        .catch((caught) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.code).toBe("token_concurrency_limited");
      expect(error.headers.get("retry-after")).toBe("1");
      expect(attempts).toBe(1);
      await held;
      behave(c.upstream);
      await checkLedgerOf(c);
    });

    for (const limited of [false, true]) {
      test(`an upstream reporting more than max_tokens allows (or a call without it), 50 at once${limited ? ", a limited token" : ""}: the period ends exactly at its budget`, async () => {
        const c = cluster();
        const budget = 20_000;
        const token = await tokenWith(c, `${name}-over-${limited}`, {
          quota_period: "day",
          period_quota: budget,
          ...(limited ? { unlimited_quota: false, remain_quota: 1_000_000 } : {}),
        });
        const periodUsed = async () =>
          n((await c.store.query<{ used: number }>("select period_used_quota as used from tokens where id = ?", token.id))[0]!.used);
        let highest = 0;
        let running = true;
        const sampler = (async () => {
          while (running) {
            highest = Math.max(highest, await periodUsed());
            await Bun.sleep(20);
          }
        })();
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, index) =>
            call(c.urls[index % c.urls.length]!, token.key, { model: overModel, max_tokens: index % 2 ? 1 : undefined }),
          ),
        );
        running = false;
        await sampler;
        const served = outcomes.filter((outcome) => outcome.status === 200).length;
        expect(served * overCost).toBeGreaterThan(budget);
        expectRefusals(outcomes, "token_period_quota_exhausted", 86_400);
        await checkLedgerOf(c);
        highest = Math.max(highest, await periodUsed());
        expect(highest).toBe(budget);

        const view = await tokenView(c, token.id);
        expect([n(view.period_used_quota), n(view.used_quota)]).toEqual([budget, budget]);
        if (limited) expect(n(view.remain_quota)).toBe(1_000_000 - budget);
        const logs = await c.store.query<{ quota: number; other: string }>(
          "select quota, other from logs where type = 2 and token_id = ?",
          token.id,
        );
        expect(logs).toHaveLength(served);
        const others = logs.map((log) => JSON.parse(log.other) as { uncollected?: number; uncollected_reason?: string });
        expect(logs.reduce((sum, log) => sum + n(log.quota), 0)).toBe(budget);
        expect(others.reduce((sum, other) => sum + (other.uncollected ?? 0), 0)).toBe(served * overCost - budget);
        for (const other of others) if (other.uncollected) expect(other.uncollected_reason).toBe("period_quota");
        // Spent: the next call is refused until the period ends.
        expect(await call(c.urls[0]!, token.key, { model: overModel })).toMatchObject({
          status: 429,
          code: "token_period_quota_exhausted",
        });
      });
    }

    test("a spent period: the client does not wait for the period's end, and gets the code", async () => {
      const c = cluster();
      const token = await tokenWith(c, `${name}-sdk-period`, { quota_period: "week", period_quota: price });
      expect((await call(c.urls[0]!, token.key)).status).toBe(200);
      let attempts = 0;
      const client = new OpenAI({
        baseURL: `${c.urls.at(-1)}/v1`,
        apiKey: `sk-${token.key}`,
        maxRetries: 1,
        fetch: (input, init) => {
          attempts++;
          return fetch(input as string, init as RequestInit);
        },
      });
      const error = await client.chat.completions
        .create({ model, messages: [{ role: "user", content: "hi" }], max_tokens: 5 })
        .catch((caught) => caught);
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.code).toBe("token_period_quota_exhausted");
      // A week's end is more than a minute away: Retry-After says when, x-should-retry that the
      // client should not sleep until then.
      expect(Number(error.headers.get("retry-after"))).toBeGreaterThan(60);
      expect(error.headers.get("x-should-retry")).toBe("false");
      expect(attempts).toBe(1);
      await checkLedgerOf(c);
    });
  });
}

/** A day's test in the last 90 s of a UTC day waits for the next one: the period would end mid-test. */
async function clearOfUtcMidnight(): Promise<void> {
  const left = Date.UTC(...nextUtcDay()) - Date.now();
  if (left < 90_000) await Bun.sleep(left + 1000);
}

function nextUtcDay(): [number, number, number] {
  const now = new Date();
  return [now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1];
}

async function checkLedgerOf(cluster: Cluster) {
  for (const url of cluster.urls) await checkLedger(cluster.store, url);
}

function behave(upstream: Upstream) {
  upstream.behave("sk-limits", { delayMs: 150, promptTokens: 10, completionTokens: 5 });
  // Long enough for a call to be refused while it runs, short enough to end before a 1 s retry.
  upstream.behave("sk-limits-slow", { delayMs: 600, promptTokens: 10, completionTokens: 5 });
  upstream.behave("sk-limits-over", { delayMs: 150, promptTokens: 10, completionTokens: 600 });
}

async function prepare(root: ApiSession, upstream: Upstream, store: TestStore) {
  for (const [key, models] of [
    ["sk-limits", model],
    ["sk-limits-slow", "slow-limit-model"],
    ["sk-limits-over", overModel],
  ]) {
    const channel = await root.post("/api/channel/", { name: key, type: 1, key, base_url: upstream.url, models, group: "default" });
    expect(channel.body.success).toBe(true);
  }
  for (const [key, value] of [
    ["ModelPrice", JSON.stringify({ [model]: 0.02, "slow-limit-model": 0.02 })],
    ["ModelRatio", JSON.stringify({ [overModel]: 10 })],
    ["CompletionRatio", JSON.stringify({ [overModel]: 1 })],
  ]) {
    expect((await root.put("/api/option/", { key, value })).body.success).toBe(true);
  }
  behave(upstream);
  await store.query("update users set quota = 1000000000 where id = 1");
}

describe("token limits on one instance", () => {
  let world: RelayWorld;
  let c: Cluster;
  beforeAll(async () => {
    world = await startRelayWorld({ TZ: "UTC", ...ledgerCheckEnv });
    await prepare(world.root, world.upstream, world.server.store);
    c = { urls: [world.server.url], store: world.server.store, upstream: world.upstream, root: world.root };
  });
  afterAll(() => world.stop());
  limitCases("one instance", () => c);

  test("the management API checks the limits and returns them", async () => {
    for (const [field, value] of [
      ["quota_period", "year"],
      ["period_quota", -1],
      ["rpm_limit", -2],
      ["tpm_limit", "many"],
      ["concurrency_limit", 1.5],
    ] as const) {
      const result = await c.root.post("/api/token/", { name: "bad", [field]: value });
      expect(result.body.success).toBe(false);
    }
    const created = await c.root.post("/api/token/", {
      name: "limited",
      quota_period: "month",
      period_quota: 123,
      rpm_limit: 4,
      tpm_limit: 500,
      concurrency_limit: 2,
    });
    expect(created.body.data[0]).toMatchObject({
      quota_period: "month",
      period_quota: 123,
      period_used_quota: 0,
      rpm_limit: 4,
      tpm_limit: 500,
      concurrency_limit: 2,
    });
    const id = created.body.data[0].id;
    const updated = await c.root.put("/api/token/", { id, name: "limited", quota_period: "", rpm_limit: 0 });
    expect(updated.body.data).toMatchObject({ quota_period: "", period_reset_at: 0, rpm_limit: 0, tpm_limit: 500 });
  });
});

describe("a period starts over at the boundary of the gateway's time zone", () => {
  let world: RelayWorld;
  beforeAll(async () => {
    // The gateway's clock 30 s before midnight in Shanghai (UTC+8, no summer time). Its offset is
    // fixed when it starts, so a start-up slow enough to leave under 12 s is started again.
    for (let attempt = 1; ; attempt++) {
      const now = Date.now();
      const shanghaiMidnight = (Math.floor((now + 8 * 3600_000) / 86_400_000) + 1) * 86_400_000 - 8 * 3600_000;
      const offset = shanghaiMidnight - 30_000 - now;
      world = await startRelayWorld({ TZ: "Asia/Shanghai", SWITCHYARD_CLOCK_OFFSET_MS: String(offset), ...ledgerCheckEnv });
      await prepare(world.root, world.upstream, world.server.store);
      world.upstream.behave("sk-limits", { promptTokens: 10, completionTokens: 5 });
      if (shanghaiMidnight - (Date.now() + offset) >= 12_000 || attempt === 3) break;
      await world.stop();
    }
  }, 180_000);
  afterAll(() => world.stop());

  test("spent before midnight, admitted again after it", async () => {
    const c: Cluster = { urls: [world.server.url], store: world.server.store, upstream: world.upstream, root: world.root };
    const token = await tokenWith(c, "midnight", { quota_period: "day", period_quota: 2 * price });
    const before = await burst(c, token.key, 4);
    expect(before.filter((outcome) => outcome.status === 200)).toHaveLength(2);
    const refusal = before.find((outcome) => outcome.status === 429)!;
    expect(refusal.code).toBe("token_period_quota_exhausted");
    const wait = Number(refusal.retryAfter);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(30);
    const view = await tokenView(c, token.id);
    expect(n(view.period_used_quota)).toBe(2 * price);
    const resetAt = n(view.period_reset_at);

    await Bun.sleep(wait * 1000 + 300);
    const after = await burst(c, token.key, 4);
    expect(after.filter((outcome) => outcome.status === 200)).toHaveLength(2);
    const later = await tokenView(c, token.id);
    expect(n(later.period_used_quota)).toBe(2 * price);
    expect(n(later.used_quota)).toBe(4 * price);
    expect(n(later.period_reset_at)).toBe(resetAt + 86_400);
    await checkLedger(c.store, world.server.url);
  }, 120_000);
});

const clustered = testDialect === "pg" && Boolean(process.env.TEST_REDIS_URL);

describe.if(clustered)("token limits on two instances sharing PostgreSQL and Redis", () => {
  let store: TestStore;
  let upstream: Upstream;
  let first: TestServer;
  let second: TestServer;
  let c: Cluster;
  beforeAll(async () => {
    store = await createTestStore();
    upstream = await startUpstream();
    const env = {
      ...sharedRedisEnv(),
      TZ: "UTC",
      ...ledgerCheckEnv,
    };
    first = await startTestServer({ store, env });
    second = await startTestServer({ store, env });
    const root = await rootSession(first.url);
    await prepare(root, upstream, store);
    c = { urls: [first.url, second.url], store, upstream, root };
    // The second instance hears of the channels and prices through Redis's notices: it is ready
    // once its price list shows all three models priced as set.
    for (let tries = 0; ; tries++) {
      const rows: { model_name: string; model_price: number; model_ratio: number }[] =
        (await (await fetch(`${second.url}/api/pricing`)).json()).data ?? [];
      const priced = (name: string, check: (row: (typeof rows)[number]) => boolean) =>
        rows.some((row) => row.model_name === name && check(row));
      const ready =
        priced(model, (row) => row.model_price === 0.02) &&
        priced("slow-limit-model", (row) => row.model_price === 0.02) &&
        priced(overModel, (row) => row.model_ratio === 10);
      if (ready) break;
      if (tries === 200) throw new Error("the second instance never heard of the channels and prices");
      await Bun.sleep(50);
    }
  });
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
    await upstream?.stop();
    await store?.dispose();
  });
  limitCases("two instances", () => c);
});
