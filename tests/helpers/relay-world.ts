// Everything a relay suite needs: the real gateway over a new store, an imitation upstream,
// root's /api session, and helpers that create channels and tokens through the real management
// API (as an operator would) and read balances back for exact assertions.
import OpenAI from "openai";
import { type ApiSession, rootSession } from "./api-session.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

export type RelayWorld = {
  server: TestServer;
  upstream: Upstream;
  root: ApiSession;
  stop(): Promise<void>;
};

export async function startRelayWorld(env: Record<string, string> = {}): Promise<RelayWorld> {
  const upstream = await startUpstream();
  const server = await startTestServer({ env: { STREAMING_TIMEOUT: "3", ...env } });
  const root = await rootSession(server.url);
  return {
    server,
    upstream,
    root,
    async stop() {
      await server.stop();
      await upstream.stop();
    },
  };
}

export type ChannelInput = {
  name?: string;
  type?: number;
  key: string;
  base_url?: string;
  models?: string;
  group?: string;
  priority?: number;
  weight?: number;
  model_mapping?: string;
  status_code_mapping?: string;
  other?: string;
  auto_ban?: number;
  openai_organization?: string;
  test_model?: string;
};

/** Creates a channel through POST /api/channel/ and returns its id. */
export async function addChannel(world: RelayWorld, input: ChannelInput): Promise<number> {
  const result = await world.root.post("/api/channel/", {
    name: input.key.slice(0, 64),
    type: ChannelType.OpenAI,
    base_url: world.upstream.url,
    models: "gpt-4o-mini",
    group: "default",
    ...input,
  });
  if (!result.body.success) throw new Error(`channel create failed: ${JSON.stringify(result.body)}`);
  return result.body.data[0].id;
}

export type TokenInput = {
  name?: string;
  remain_quota?: number;
  unlimited_quota?: boolean;
  expired_time?: number;
  model_limits_enabled?: boolean;
  model_limits?: string;
  allow_ips?: string;
  group?: string;
  quota_period?: "" | "day" | "week" | "month";
  period_quota?: number;
  rpm_limit?: number;
  tpm_limit?: number;
  concurrency_limit?: number;
};

/** Creates a token through POST /api/token/ for the session's user; returns {id, key}. */
export async function addToken(session: ApiSession, input: TokenInput = {}): Promise<{ id: number; key: string }> {
  const result = await session.post("/api/token/", {
    name: input.name ?? "test",
    remain_quota: 0,
    unlimited_quota: true,
    expired_time: -1,
    ...input,
  });
  if (!result.body.success) throw new Error(`token create failed: ${JSON.stringify(result.body)}`);
  const token = result.body.data[0];
  return { id: token.id, key: token.key };
}

export async function setOptions(world: RelayWorld, options: Record<string, string | number | boolean>): Promise<void> {
  for (const [key, value] of Object.entries(options)) {
    const result = await world.root.put("/api/option/", { key, value: String(value) });
    if (!result.body.success) throw new Error(`option ${key} failed: ${JSON.stringify(result.body)}`);
  }
}

export function openai(world: RelayWorld, key: string): OpenAI {
  return new OpenAI({ baseURL: `${world.server.url}/v1`, apiKey: `sk-${key}`, maxRetries: 0, timeout: 20_000 });
}

/** A raw call (for what the SDK hides: status, headers, exact error objects). */
export async function postRelay(
  world: RelayWorld,
  path: string,
  key: string | undefined,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${world.server.url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === undefined ? {} : { authorization: `Bearer sk-${key}` }), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text, headers: response.headers };
}

export async function one<T = Record<string, any>>(world: RelayWorld, sql: string, ...params: unknown[]): Promise<T> {
  const [row] = await world.server.store.query<T>(sql, ...params);
  return row!;
}

/** Numbers from either store (PostgreSQL may return bigint columns as strings). */
export const n = (value: unknown) => Number(value);

/** The error object without the " (request id: …)" suffix, for exact comparisons. */
export function withoutRequestId(body: any) {
  return { ...body, error: { ...body.error, message: String(body.error.message).replace(/ \(request id: [^)]+\)$/, "") } };
}

const probeModel = "gpt-4-gizmo-reservation-probe";
/** The built-in fixed price of gpt-4-gizmo-* ($0.10 a call): the probe's hold, exactly. */
const probeHold = 50_000;
const probeChannels = new WeakMap<RelayWorld, Promise<number>>();

/**
 * Whether anything is still reserved for a user: a request whose hold is exactly the user's
 * balance is admitted only when nothing else holds part of it. Reservations live outside the
 * store, so this is asked of the relay itself, with an unlimited token of the user's (a limited
 * token's reservation is the same reservation as its user's). The balance is put back afterwards;
 * the probe's own charge stays, logged like any other request (used quota = sum of logs holds).
 */
export async function reservedFor(world: RelayWorld, holder: { userId: number; tokenKey: string }): Promise<boolean> {
  if (!probeChannels.has(world))
    probeChannels.set(world, addChannel(world, { key: "sk-reservation-probe", models: "gpt-4-gizmo-*", group: "default,vip" }));
  await probeChannels.get(world);
  const user = await one(world, "select quota from users where id = ?", holder.userId);
  await world.server.store.query("update users set quota = ? where id = ?", probeHold, holder.userId);
  let response: Awaited<ReturnType<typeof postRelay>> | undefined;
  // A new probe channel reaches the relay's channel index through a change notice, or with Redis
  // away through the caches' resync every 3 s: until then the model is unknown (404) or has no
  // usable channel (503). Give it up to 6 s.
  for (let attempt = 0; attempt < 60 && (!response || response.status === 503 || response.status === 404); attempt++) {
    if (response) await Bun.sleep(100);
    response = await postRelay(world, "/v1/chat/completions", holder.tokenKey, {
      model: probeModel,
      messages: [{ role: "user", content: "probe" }],
    });
  }
  await world.server.store.query("update users set quota = ? where id = ?", n(user.quota), holder.userId);
  if (response!.status !== 200 && response!.status !== 403)
    throw new Error(`reservation probe answered ${response!.status}: ${response!.text}`);
  return response!.status === 403;
}
