// Two gateway instances on one PostgreSQL database and a Redis of the test's own, for the Redis
// fault cases (issue 18): load through both, bans and token disables, and the ledger checked
// from the store afterwards. SYNC_FREQUENCY is ten minutes, so whatever converges sooner did so
// through notices or the degraded resync, not the periodic job.
import { expect } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "./api-session.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { createTestStore, type TestStore } from "./test-store.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { addChannel, addToken, n, postRelay, reservedFor, setOptions, type RelayWorld } from "./relay-world.ts";

export const fixedModel = "outage-fixed-model";
/** ModelPrice 0.02 at 500,000 per dollar: each call holds and costs this. */
export const fixedPrice = 10_000;

/** The /metrics token both instances are started with. */
export const outageMetricsToken = "outage-metrics-token-0123456789";

export type Customer = { id: number; session: ApiSession; token: { id: number; key: string } };

export type OutageWorld = {
  store: TestStore;
  upstream: Upstream;
  prefix: string;
  worlds: [RelayWorld, RelayWorld];
  customer(name: string, quota: number): Promise<Customer>;
  /** One relay call through instance `index` (0 or 1). */
  call(index: number, key: string, body?: Record<string, unknown>): ReturnType<typeof postRelay>;
  /** Waits until `check` holds (polling), failing with `what` after `seconds`. */
  eventually(what: string, check: () => Promise<boolean>, seconds?: number): Promise<void>;
  /** Whether each instance's admin status says the shared state is healthy. */
  sharedHealthy(): Promise<[boolean, boolean]>;
  /** Each instance's `switchyard_shared_state_healthy{kind="redis"}` sample. */
  healthMetric(): Promise<string[]>;
  stop(): Promise<void>;
};

export async function startOutageWorld(redisUrl: string): Promise<OutageWorld> {
  const store = await createTestStore();
  const upstream = await startUpstream();
  const prefix = `switchyard-outage-${crypto.randomUUID()}:`;
  const metricsToken = outageMetricsToken;
  const env = {
    REDIS_CONN_STRING: redisUrl,
    REDIS_KEY_PREFIX: prefix,
    STREAMING_TIMEOUT: "60",
    SYNC_FREQUENCY: "600",
    METRICS_ENABLED: "true",
    METRICS_TOKEN: metricsToken,
  };
  const servers: TestServer[] = [await startTestServer({ store, env }), await startTestServer({ store, env })];
  const roots = [await rootSession(servers[0]!.url), await rootSession(servers[1]!.url)];
  const worlds = servers.map((server, index) => ({ server, upstream, root: roots[index]!, stop: async () => {} })) as [
    RelayWorld,
    RelayWorld,
  ];
  await addChannel(worlds[0], { key: "outage-channel", models: `${fixedModel},outage-ratio-model` });
  await setOptions(worlds[0], {
    ModelPrice: JSON.stringify({ [fixedModel]: 0.02 }),
    ModelRatio: JSON.stringify({ "outage-ratio-model": 10 }),
    CompletionRatio: JSON.stringify({ "outage-ratio-model": 1 }),
  });

  const call = (
    index: number,
    key: string,
    body: Record<string, unknown> = { model: fixedModel, messages: [{ role: "user", content: "hi" }] },
  ) => postRelay(worlds[index % 2]!, "/v1/chat/completions", key, body);

  const eventually = async (what: string, check: () => Promise<boolean>, seconds = 20) => {
    const deadline = Date.now() + seconds * 1000;
    while (!(await check())) {
      if (Date.now() > deadline) throw new Error(`${what}: not within ${seconds} s`);
      await Bun.sleep(100);
    }
  };

  const customer = async (name: string, quota: number): Promise<Customer> => {
    const session = await newUserSession(servers[0]!.url, name);
    const id = session.userId!;
    await store.query("update users set quota = ? where id = ?", quota, id);
    const token = await addToken(session);
    return { id, session, token };
  };

  const world: OutageWorld = {
    store,
    upstream,
    prefix,
    worlds,
    customer,
    call,
    eventually,
    async sharedHealthy() {
      const statuses = await Promise.all(roots.map((root) => root.get("/api/status")));
      return statuses.map((status) => status.body.data.shared_state?.healthy === true) as [boolean, boolean];
    },
    healthMetric: () =>
      Promise.all(
        servers.map(async (server) => {
          const text = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })).text();
          return /^switchyard_shared_state_healthy\{kind="redis"\} (\d)$/m.exec(text)?.[1] ?? "absent";
        }),
      ),
    async stop() {
      for (const server of servers) await server.stop();
      await upstream.stop();
      await store.dispose();
    },
  };
  // The second instance learns of the channel and the prices through Redis.
  const probe = await customer("outageprobe", 10 * fixedPrice);
  await eventually("the second instance serves the new channel", async () => (await call(1, probe.token.key)).status === 200);
  return world;
}

/** Requests through both instances, `concurrency` at a time, until stopped; every answer's status. */
export function startLoad(world: OutageWorld, key: string, concurrency = 4) {
  let running = true;
  const statuses: number[] = [];
  const loops = Array.from({ length: concurrency }, async (_, index) => {
    for (let turn = index; running; turn++) statuses.push((await world.call(turn, key)).status);
  });
  return {
    statuses,
    async stop() {
      running = false;
      await Promise.all(loops);
      return statuses;
    },
  };
}

/**
 * The ledger of a user, from the store, once idle: quota + used quota is what it was given (no
 * hold left debited, nothing lost), used quota = Σ consumption logs and the request count their
 * number, the balance no lower than `-overdraftBound`, and nothing reserved on either instance.
 */
export async function expectBalancedBooks(world: OutageWorld, customer: Customer, given: number, overdraftBound = 0): Promise<void> {
  const books = async () => {
    const [user] = await world.store.query<Record<string, unknown>>(
      "select quota, used_quota, request_count from users where id = ?",
      customer.id,
    );
    const [logs] = await world.store.query<Record<string, unknown>>(
      "select count(*) as count, coalesce(sum(quota), 0) as total from logs where type = 2 and user_id = ?",
      customer.id,
    );
    return {
      quota: n(user!.quota),
      used: n(user!.used_quota),
      requests: n(user!.request_count),
      logs: n(logs!.count),
      logTotal: n(logs!.total),
    };
  };
  // Holds debited in the store come back when their requests end; give the last ones a moment.
  await world
    .eventually("every hold ended", async () => {
      const now = await books();
      return now.quota + now.used === given;
    })
    .catch(() => undefined);
  const after = await books();
  expect(after.quota + after.used).toBe(given);
  expect([after.used, after.requests]).toEqual([after.logTotal, after.logs]);
  expect(after.quota).toBeGreaterThanOrEqual(-overdraftBound);
  for (const relay of world.worlds) expect(await reservedFor(relay, { userId: customer.id, tokenKey: customer.token.key })).toBe(false);
}

/** Bans a user (root, through instance `index`). */
export async function ban(world: OutageWorld, index: number, customer: Customer): Promise<void> {
  const answer = await world.worlds[index]!.root.post("/api/user/manage", { id: customer.id, action: "disable" });
  expect(answer.body.success).toBe(true);
}

/** The user disables their own token (through instance `index`). */
export async function disableToken(world: OutageWorld, index: number, customer: Customer): Promise<void> {
  const on = Object.assign(new ApiSession(world.worlds[index]!.server.url), { cookie: customer.session.cookie, userId: customer.id });
  const answer = await on.put("/api/token/?status_only=true", { id: customer.token.id, status: 2 });
  expect(answer.body.success).toBe(true);
}

/** Waits until instance `index` refuses the customer's token (a ban or disable reached it). */
export function refusedOn(world: OutageWorld, index: number, customer: Customer, what: string, seconds = 20): Promise<void> {
  return world.eventually(what, async () => (await world.call(index, customer.token.key)).status !== 200, seconds);
}
