// The /api face: every JSON route module, behind the general per-address rate limit and, for
// sign-in, registration and reset, the credential checks (both when the request arrives, before
// its body is read), and the body size limit (while reading).
import { Elysia } from "elysia";
import { pathOfUrl } from "../faces.ts";
import { clientAddress } from "../http/client-address.ts";
import { credentialScopeOf, guardCredentialRequest } from "../http/credential-guard.ts";
import { limitedBodyParser } from "../http/limited-body-parser.ts";
import { enforceRateLimit } from "../http/rate-limit.ts";
import { requestTranslator } from "../http/request-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { accountSessionRoutes } from "./account-session-routes.ts";
import { auditRoutes } from "./audit-routes.ts";
import { channelRoutes } from "./channel-routes.ts";
import { passkeyRoutes } from "./passkey-routes.ts";
import { twoFactorRoutes } from "./two-factor-routes.ts";
import { logRoutes } from "./log-routes.ts";
import { modelGroupRoutes } from "./model-group-routes.ts";
import { dataRoutes } from "./data-routes.ts";
import { optionRoutes } from "./option-routes.ts";
import { pricingAdminRoutes } from "./pricing-admin-routes.ts";
import { redemptionRoutes } from "./redemption-routes.ts";
import { selfRoutes } from "./self-routes.ts";
import { sessionRoutes } from "./session-routes.ts";
import { statusRoutes } from "./status-routes.ts";
import { oauthRoutes } from "./oauth-routes.ts";
import { userAdminRoutes } from "./user-admin-routes.ts";
import { verificationRoutes } from "./verification-routes.ts";
import { taskRoutes } from "./task-routes.ts";
import { tokenRoutes } from "./token-routes.ts";
import { topUpRoutes } from "./topup-routes.ts";

export const apiApp = (deps: WebDeps) =>
  new Elysia({ name: "api" })
    .onRequest(async ({ request, server }) => {
      // Runs for every request of every face: a prefix test, nothing more, for the others.
      const path = pathOfUrl(request.url);
      if (!path.startsWith("/api/")) return;
      await enforceRateLimit("api", clientAddress(request, server, deps.config.trustProxy), deps.config.apiRateLimit);
      const credentials = credentialScopeOf(request.method, path);
      if (credentials) await guardCredentialRequest(credentials, request, server, deps.config);
    })
    .onParse(limitedBodyParser(deps.config.bodyLimits.api))
    // Success messages are catalog keys like error messages: answer in the caller's language.
    .onAfterHandle({ as: "global" }, ({ request, path, responseValue }) => {
      if (!path.startsWith("/api/")) return;
      const body = responseValue as { success?: unknown; message?: unknown } | null;
      if (body && typeof body === "object" && body.success === true && typeof body.message === "string" && body.message) {
        return { ...body, message: requestTranslator(request)(body.message) };
      }
    })
    .use(statusRoutes(deps))
    .use(sessionRoutes(deps))
    .use(twoFactorRoutes(deps))
    .use(passkeyRoutes(deps))
    .use(accountSessionRoutes(deps))
    .use(selfRoutes(deps))
    .use(optionRoutes(deps))
    .use(verificationRoutes(deps))
    .use(oauthRoutes(deps))
    .use(userAdminRoutes(deps))
    .use(channelRoutes(deps))
    .use(tokenRoutes(deps))
    .use(logRoutes(deps))
    .use(modelGroupRoutes(deps))
    .use(pricingAdminRoutes(deps))
    .use(redemptionRoutes(deps))
    .use(topUpRoutes(deps))
    .use(dataRoutes(deps))
    .use(taskRoutes(deps))
    .use(auditRoutes(deps));
