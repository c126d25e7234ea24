// Stopping without losing money (SIGTERM or SIGINT; see main.ts). In order:
//
//   1. stop listening: no new connections; new relay requests on open connections get 503;
//   2. stop the background jobs and wait for runs in progress;
//   3. relay requests in flight finish by themselves for up to SHUTDOWN_GRACE_PERIOD seconds,
//      then the rest are cut: before their answer, the hold goes back and they get 503; streams
//      are settled on what was delivered and end with an error event (relay/in-flight.ts);
//   4. the other requests in progress (/api, pages) finish; connections still open are closed;
//   5. the ledger commits every queued move (drainLedger), the error log writes what waits, then
//      the shared state and the store close. Only then does the process exit, with 0.
import type { Server } from "bun";
import { logger } from "./logger.ts";
import { stopJobs } from "./jobs/scheduler.ts";
import { drainRelayFlights, relayFlightCount, relayFlightsEnded } from "./relay/in-flight.ts";
import { drainLedger } from "./services/billing/quota-holds.ts";
import { flushErrorLogs } from "./services/logs/error-log-book.ts";

export type StoppableParts = {
  server: Server<unknown>;
  graceSeconds: number;
  closeShared(): Promise<void>;
  closeStore(): Promise<void>;
};

/** After the cut: how long answers may take to reach slow clients before connections are closed. */
const closingMs = 5000;

const within = <T>(promise: Promise<T>, milliseconds: number) =>
  Promise.race([promise.then(() => true), Bun.sleep(milliseconds).then(() => false)]);

/** Resolves true when every request was settled or released, false when some never ended. */
export async function stopGracefully(parts: StoppableParts, reason: string): Promise<boolean> {
  const graceMs = parts.graceSeconds * 1000;
  logger.info(`stopping (${reason}): no new connections`, { relayInFlight: relayFlightCount(), graceSeconds: parts.graceSeconds });
  // Resolves when every request in progress has been answered and its connection closed.
  const connectionsClosed = parts.server.stop(false);
  const jobsStopped = stopJobs();
  const relay = await drainRelayFlights(graceMs);
  if (relay.cut > 0)
    logger.warn("cut relay requests still running after the grace period", { cut: relay.cut, graceSeconds: parts.graceSeconds });
  let relayEnded = await within(relayFlightsEnded(), closingMs);
  // A client that stopped reading (or never finished sending) keeps its connection: close them,
  // which also ends a request still reading its body.
  if (!(await within(connectionsClosed, relayEnded ? closingMs : 0))) await parts.server.stop(true);
  if (!relayEnded) relayEnded = await within(relayFlightsEnded(), closingMs);
  await within(jobsStopped, graceMs);
  await drainLedger();
  // The error log entries still waiting for their batch (they are a record, not money).
  await within(flushErrorLogs({ everything: true }), closingMs);
  await parts.closeShared();
  await parts.closeStore();
  if (!relayEnded) {
    logger.error("stopped with relay requests that never ended: their reservations end with the process, nothing was charged", {
      relayInFlight: relayFlightCount(),
    });
    return false;
  }
  logger.info("stopped: every request settled or released", { relayWaitedFor: relay.waitedFor, relayCut: relay.cut });
  return true;
}
