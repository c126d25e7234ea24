// Start-up, top to bottom: take the SQLite store's lock (one process per file), open the store
// (migrating it), open the shared state and the reservation book, load options, make sure root
// exists (printing the setup code while it has the default password), build the app, listen
// (alone on its port), start the background jobs of job-list.ts. A refusal to start is a
// StartRefused: one line.
import { join } from "node:path";
import { createApp } from "./app.ts";
import { setClockOffset } from "./clock.ts";
import type { Config } from "./config.ts";
import { openSharedState } from "./cache/open-shared-state.ts";
import { watchSharedHealth } from "./jobs/degraded-resync.ts";
import { useDiskAssets } from "./console/assets/asset-store.ts";
import { trustOutboundHosts } from "./http/outbound-url.ts";
import { outerBodyLimit } from "./http/read-body.ts";
import { backgroundJobs } from "./jobs/job-list.ts";
import { connectionIdleSeconds } from "./relay/pipeline/connection-idle.ts";
import { startJobs } from "./jobs/scheduler.ts";
import { logger } from "./logger.ts";
import { startProcessMetrics } from "./metrics/metrics.ts";
import { watchServices } from "./metrics/service-gauges.ts";
import { openReservationBook } from "./services/billing/reservation-book.ts";
import { openTokenMeters } from "./relay/guards/token-meters.ts";
import { loadOptions } from "./services/options/options.ts";
import { ensureSessionSecret } from "./services/auth/session-secret.ts";
import { announceSetupCode, watchRootPassword } from "./services/onboarding/setup-code.ts";
import { createRootIfEmpty } from "./services/users/registration.ts";
import { stopGracefully } from "./shutdown.ts";
import { closeStore, openStore } from "./store/client.ts";
import { lockSqliteStore, StoreLocked, type StoreLock } from "./store/sqlite-lock.ts";
import { productVersion } from "./version.ts";

export type RunningServer = {
  port: number;
  /**
   * Stops without losing money (shutdown.ts); `reason` is logged (the signal). False when some
   * relay request never ended (its reservation ends with the process; nothing was charged).
   */
  stop(reason: string): Promise<boolean>;
};

/** The server cannot start as configured (the port or the store is taken): main.ts prints it. */
export class StartRefused extends Error {}

export async function startServer(config: Config): Promise<RunningServer> {
  setClockOffset(config.clockOffsetMs);
  trustOutboundHosts(config.outboundAllowedHosts);
  // biome-ignore lint/correctness/useHookAtTopLevel: a setter named "use", not a React hook (no React on the server)
  useDiskAssets(join(import.meta.dir, "..", "build"));
  // Refused before anything is written: a start on a taken port leaves no new store behind.
  refuseTakenPort(config);
  let storeLock: StoreLock | undefined;
  if (config.store.dialect === "sqlite" && config.store.path !== ":memory:") {
    try {
      storeLock = lockSqliteStore(config.store.path);
    } catch (error) {
      throw error instanceof StoreLocked ? new StartRefused(error.message) : error;
    }
  }
  await openStore(config.store);
  const shared = await openSharedState(config.redisUrl, config.redisPrefix, config.redisTimeoutMs);
  watchServices(shared);
  const reservations = await openReservationBook(shared, config.nodeName);
  await openTokenMeters(shared, config.nodeName);
  await loadOptions();
  const createdRoot = await createRootIfEmpty();
  if (createdRoot) logger.warn("created the root account root / 123456: change its password now");
  await announceSetupCode(createdRoot);
  watchRootPassword();
  const sessionSecret = await ensureSessionSecret(config.sessionSecret);
  const app = createApp(config, sessionSecret);
  listenAlone(app, config);
  const port = app.server!.port!;
  startJobs(config, backgroundJobs);
  startProcessMetrics(1000);
  const stopWatching = watchSharedHealth(shared);
  logger.info(`Switchyard ${productVersion} listening`, {
    address: `http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`,
    store: config.store.dialect,
    shared: shared.kind,
  });
  return {
    port,
    stop: (reason) =>
      stopGracefully(
        {
          server: app.server!,
          graceSeconds: config.shutdownGraceSeconds,
          async closeShared() {
            stopWatching();
            await reservations.close();
            await shared.close();
          },
          async closeStore() {
            await closeStore();
            storeLock?.release();
          },
        },
        reason,
      ),
  };
}

const portTaken = (config: Config) =>
  new StartRefused(
    `port ${config.port} on ${config.host} is already in use by another process (another Switchyard?): stop it, or choose another port with PORT or --port`,
  );

function refuseTakenPort(config: Config): void {
  if (config.port === 0) return;
  try {
    Bun.listen({ hostname: config.host, port: config.port, socket: { data() {} } }).stop(true);
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") throw portTaken(config);
    // Anything else (an address this host does not have...) is left for the real listen to report.
  }
}

/**
 * Listens with the port to itself. Elysia asks Bun for SO_REUSEPORT by default, under which a
 * second instance on a taken port starts without a word and the kernel splits the connections
 * between the two; without it the second start fails here, with a message that says why.
 */
function listenAlone(app: ReturnType<typeof createApp>, config: Config): void {
  try {
    app.listen({
      port: config.port,
      hostname: config.host,
      reusePort: false,
      maxRequestBodySize: outerBodyLimit(config.bodyLimits),
      idleTimeout: connectionIdleSeconds,
    });
  } catch (error) {
    if ((error as { code?: string }).code !== "EADDRINUSE") throw error;
    throw portTaken(config);
  }
}
