// Start-up, top to bottom: open the store (migrating it), open the shared state and the
// reservation book, load options, make sure root exists, build the app, listen, start background
// jobs.
import { join } from "node:path";
import { createApp } from "./app.ts";
import { setClockOffset } from "./clock.ts";
import type { Config } from "./config.ts";
import { openSharedState } from "./cache/open-shared-state.ts";
import { watchSharedHealth } from "./jobs/degraded-resync.ts";
import { useDiskAssets } from "./console/assets/asset-store.ts";
import { trustOutboundHosts } from "./http/outbound-url.ts";
import { outerBodyLimit } from "./http/read-body.ts";
import { startJobs } from "./jobs/scheduler.ts";
import { logger } from "./logger.ts";
import { startProcessMetrics } from "./metrics/metrics.ts";
import { openReservationBook } from "./services/billing/reservation-book.ts";
import { loadOptions } from "./services/options/options.ts";
import { ensureSessionSecret } from "./services/auth/session-secret.ts";
import { createRootIfEmpty } from "./services/users/registration.ts";
import { stopGracefully } from "./shutdown.ts";
import { closeStore, openStore } from "./store/client.ts";
import { productVersion } from "./version.ts";

export type RunningServer = {
  port: number;
  /**
   * Stops without losing money (shutdown.ts); `reason` is logged (the signal). False when some
   * relay request never ended (its reservation ends with the process; nothing was charged).
   */
  stop(reason: string): Promise<boolean>;
};

export async function startServer(config: Config): Promise<RunningServer> {
  setClockOffset(config.clockOffsetMs);
  trustOutboundHosts(config.outboundAllowedHosts);
  useDiskAssets(join(import.meta.dir, "..", "build"));
  await openStore(config.store);
  const shared = await openSharedState(config.redisUrl, config.redisPrefix, config.redisTimeoutMs);
  const reservations = await openReservationBook(shared, config.nodeName);
  await loadOptions();
  if (await createRootIfEmpty()) logger.warn("created the root account root / 123456: change its password now");
  const sessionSecret = await ensureSessionSecret(config.sessionSecret);
  const app = createApp(config, sessionSecret);
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize: outerBodyLimit(config.bodyLimits) });
  const port = app.server!.port!;
  startJobs(config);
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
          closeStore,
        },
        reason,
      ),
  };
}
