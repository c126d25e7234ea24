// Shared by the drawing and music suites: exact balances of a user, token and channel, the
// task rows and logs behind them, and waiting for the poller to reach a state.
import { expect } from "bun:test";
import type { TestServer } from "./test-server.ts";

export type Balances = { quota: number; used: number; requests: number; tokenRemain: number; tokenUsed: number; channelUsed: number };

const n = (value: unknown) => Number(value);

export async function balances(server: TestServer, userId: number, tokenId: number, channelId: number): Promise<Balances> {
  const [user] = await server.store.query("select quota, used_quota, request_count from users where id = ?", userId);
  const [token] = await server.store.query("select remain_quota, used_quota from tokens where id = ?", tokenId);
  const [channel] = await server.store.query("select used_quota from channels where id = ?", channelId);
  return {
    quota: n(user!.quota),
    used: n(user!.used_quota),
    requests: n(user!.request_count),
    tokenRemain: n(token!.remain_quota),
    tokenUsed: n(token!.used_quota),
    channelUsed: n(channel!.used_quota),
  };
}

/** What moved between two readings: positive = charged. */
export function charged(before: Balances, after: Balances) {
  return {
    user: before.quota - after.quota,
    used: after.used - before.used,
    token: before.tokenRemain - after.tokenRemain,
    tokenUsed: after.tokenUsed - before.tokenUsed,
    channel: after.channelUsed - before.channelUsed,
  };
}

export const chargedEverywhere = (quota: number) => ({ user: quota, used: quota, token: quota, tokenUsed: quota, channel: quota });

/** Polls `read` until `accept` holds (the background poller works on its own schedule). */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T;
  do {
    last = await read();
    if (accept(last)) return last;
    await Bun.sleep(100);
  } while (Date.now() < deadline);
  expect({ waitedFor: what, last }).toBeNull();
  return last;
}

export async function logsOf(server: TestServer, sql: string, ...params: unknown[]) {
  return server.store.query<Record<string, any>>(sql, ...params);
}

export async function relayCall(base: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
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
