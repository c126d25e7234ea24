// The /api face: every JSON route module, behind the general per-address rate limit.
import { Elysia } from "elysia";
import { clientAddress } from "../http/client-address.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { channelRoutes } from "./channel-routes.ts";
import { logRoutes } from "./log-routes.ts";
import { modelGroupRoutes } from "./model-group-routes.ts";
import { dataRoutes } from "./data-routes.ts";
import { optionRoutes } from "./option-routes.ts";
import { redemptionRoutes } from "./redemption-routes.ts";
import { selfRoutes } from "./self-routes.ts";
import { sessionRoutes } from "./session-routes.ts";
import { statusRoutes } from "./status-routes.ts";
import { tokenRoutes } from "./token-routes.ts";
import { topUpRoutes } from "./topup-routes.ts";

export const apiApp = (deps: WebDeps) =>
  new Elysia({ name: "api" })
    .onBeforeHandle({ as: "global" }, async ({ request, server, path }) => {
      if (!path.startsWith("/api/")) return;
      await enforceRateLimit("api", clientAddress(request, server, deps.config.trustProxy), deps.config.apiRateLimit);
    })
    .use(statusRoutes())
    .use(sessionRoutes(deps))
    .use(selfRoutes(deps))
    .use(optionRoutes(deps))
    .use(channelRoutes(deps))
    .use(tokenRoutes(deps))
    .use(logRoutes(deps))
    .use(modelGroupRoutes(deps))
    .use(redemptionRoutes(deps))
    .use(topUpRoutes(deps))
    .use(dataRoutes(deps));
