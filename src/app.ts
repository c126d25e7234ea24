// Composes the three faces (relay, /api, console) and static assets into one Elysia app, with
// the one error handler that formats AppError for whichever face the request came to.
import { Elysia } from "elysia";
import type { Config } from "./config.ts";
import { apiApp } from "./api/api-app.ts";
import { isAppError, type AppError } from "./errors/app-error.ts";
import { internalErrorEnvelope, toEnvelope } from "./errors/to-envelope.ts";
import { toOpenAIError } from "./errors/to-openai-error.ts";
import { createAuthGuard } from "./http/auth-guard.ts";
import { discardUnreadBody } from "./http/read-body.ts";
import { sessionJwtPlugin, type SessionJwt } from "./http/session.ts";
import { requestTranslator } from "./http/request-language.ts";
import { securityHeaders } from "./http/security-headers.ts";
import type { WebDeps } from "./http/web-deps.ts";
import { consoleApp } from "./console/console-app.ts";
import { assetRoutes } from "./console/assets/asset-routes.ts";
import { renderErrorPage } from "./console/pages/error-page.tsx";
import { logger } from "./logger.ts";
import { faceOf } from "./faces.ts";
import { countRequest } from "./metrics/metrics.ts";
import { metricsRoutes } from "./metrics/metrics-route.ts";
import { openApiRoutes } from "./openapi/openapi-routes.ts";
import { relayApp } from "./relay/relay-app.ts";
import { useProviderEndpoints } from "./services/auth/provider-endpoints.ts";

export function createApp(config: Config, sessionSecret: string) {
  // biome-ignore lint/correctness/useHookAtTopLevel: a setter named "use", not a React hook (no React on the server)
  useProviderEndpoints(config.endpoints);
  const deps: WebDeps = { config, auth: createAuthGuard(sessionSecret, config.trustProxy) };
  // The error handler has no route context: it verifies the session cookie itself.
  const sessionJwt = sessionJwtPlugin(sessionSecret).decorator.sessionJwt as unknown as SessionJwt;
  // The API reference describes the routes this very app registered (read when first asked).
  const routes = () => app.routes;
  const app = new Elysia()
    .use(securityHeaders())
    // After the answer left: one counter increment, by the route's pattern and the status.
    .onAfterResponse({ as: "global" }, ({ request, route, set, responseValue }) => {
      const status = responseValue instanceof Response ? responseValue.status : typeof set.status === "number" ? set.status : 200;
      countRequest(route || undefined, request, status);
    })
    .onError(async ({ error: thrown, code, request, path, set }) => {
      const face = faceOf(path);
      // Elysia wraps whatever a body parser throws; ours throws AppError (a body over the limit).
      const error = code === "PARSE" && isAppError((thrown as Error).cause) ? ((thrown as Error).cause as AppError) : thrown;
      // Refused before its body was read (rate limits, credentials): read it away first, or the
      // client, still sending, sees a reset connection instead of this answer.
      await discardUnreadBody(request);
      const translate = requestTranslator(request);
      // Elysia applies `set` to whatever the handler returns, so the status goes there too.
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        set.status = status;
        Object.assign(set.headers, { "content-type": "application/json; charset=utf-8", ...headers });
        return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json; charset=utf-8", ...headers } });
      };
      if (code === "NOT_FOUND") {
        if (face === "api") return json(404, { success: false, message: translate("接口不存在") });
        if (face === "relay") {
          return json(404, {
            error: { message: `Invalid URL (${request.method} ${path})`, type: "invalid_request_error", param: "", code: "" },
          });
        }
        set.status = 404;
        return renderErrorPage(request, 404, sessionJwt);
      }
      if ((code === "PARSE" && !isAppError(error)) || code === "VALIDATION") {
        if (face === "relay") {
          return json(400, {
            error: { message: "Invalid request body", type: "invalid_request_error", param: "", code: "invalid_request" },
          });
        }
        return json(200, { success: false, message: translate("无效的参数") });
      }
      if (isAppError(error)) {
        const retryAfter =
          error.kind === "rate_limited" && error.params?.seconds ? { "retry-after": String(error.params.seconds) } : undefined;
        if (face === "relay") {
          const { status, body } = toOpenAIError(error, translate);
          return json(status, body, retryAfter);
        }
        const { status, body } = toEnvelope(error, translate);
        return json(status, body, retryAfter);
      }
      logger.error("unhandled error", { path, error: error instanceof Error ? error.stack : String(error) });
      if (face === "relay") {
        return json(500, {
          error: { message: translate("服务器内部错误，请联系管理员"), type: "new_api_error", param: null, code: "internal_error" },
        });
      }
      if (face === "api") {
        const { status, body } = internalErrorEnvelope(translate);
        return json(status, body);
      }
      set.status = 500;
      return renderErrorPage(request, 500, sessionJwt);
    })
    .use(metricsRoutes(config))
    .use(relayApp(deps))
    .use(apiApp(deps))
    .use(openApiRoutes(routes))
    .use(assetRoutes())
    .use(consoleApp(deps));
  return app;
}
