// What the fault suite's cases share: the relay world (real gateway, imitation upstream, root's
// session) started with /metrics on so that the ledger check can see open reservations, a user
// with tokens to spend, raw streaming calls that can leave at any point, and a figures line each
// case prints for docs/RELIABILITY.md.
import { newUserSession, type ApiSession } from "./api-session.ts";
import { checkLedger, ledgerCheckEnv, type LedgerExpectations, type LedgerFigures } from "./ledger-invariants.ts";
import { addToken, startRelayWorld, type RelayWorld } from "./relay-world.ts";

export type FaultWorld = RelayWorld & {
  /** The ledger invariants from the store, after the server holds nothing reserved. */
  check(expectations?: LedgerExpectations): Promise<LedgerFigures>;
};

export async function startFaultWorld(env: Record<string, string> = {}): Promise<FaultWorld> {
  const world = await startRelayWorld({ ...ledgerCheckEnv, ...env });
  return { ...world, check: (expectations) => checkLedger(world.server.store, world.server.url, expectations) };
}

export type Spender = { session: ApiSession; userId: number; key: string; limitedKey: string; limitedId: number };

/** A user with a set balance, an unlimited token and a limited one. */
export async function addSpender(world: RelayWorld, name: string, quota: number, granted: number): Promise<Spender> {
  const session = await newUserSession(world.server.url, name);
  await world.server.store.query("update users set quota = ? where id = ?", quota, session.userId);
  const unlimited = await addToken(session, { name: `${name}-all` });
  const limited = await addToken(session, { name: `${name}-limited`, unlimited_quota: false, remain_quota: granted });
  return { session, userId: session.userId!, key: unlimited.key, limitedKey: limited.key, limitedId: limited.id };
}

export type StreamOutcome = {
  status: number;
  /** SSE data events received (a `[DONE]` included). */
  events: number;
  done: boolean;
  /** An error object arrived inside the stream. */
  errorEvent: boolean;
  /** The connection broke (or the client left). */
  broken: boolean;
  left: boolean;
};

/**
 * A streamed chat call read event by event. `leaveAfter` = the client goes away after that many
 * data events (0: right after the headers).
 */
export async function streamChat(
  world: RelayWorld,
  key: string,
  body: Record<string, unknown>,
  leaveAfter?: number,
): Promise<StreamOutcome> {
  const abort = new AbortController();
  const outcome: StreamOutcome = { status: 0, events: 0, done: false, errorEvent: false, broken: false, left: false };
  try {
    const response = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      body: JSON.stringify({ stream: true, messages: [{ role: "user", content: "tell me" }], ...body }),
      signal: abort.signal,
    });
    outcome.status = response.status;
    if (leaveAfter === 0) {
      outcome.left = true;
      abort.abort();
      return outcome;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body!) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf("\n\n")) >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = event
          .split("\n")
          .find((line) => line.startsWith("data:"))
          ?.slice(5)
          .trim();
        if (data === undefined) continue;
        outcome.events++;
        if (data === "[DONE]") outcome.done = true;
        else if (data.includes('"error"')) outcome.errorEvent = true;
        if (leaveAfter !== undefined && outcome.events >= leaveAfter) {
          outcome.left = true;
          abort.abort();
          return outcome;
        }
      }
    }
  } catch {
    if (!outcome.left) outcome.broken = true;
  }
  return outcome;
}

/** One line per case, with its load and faults: copied into docs/RELIABILITY.md after a run. */
export function reportFigures(caseName: string, figures: Record<string, unknown>): void {
  console.log(
    `[faults] ${caseName}: ${Object.entries(figures)
      .map(([name, value]) => `${name}=${typeof value === "object" ? JSON.stringify(value) : value}`)
      .join(" ")}`,
  );
}
