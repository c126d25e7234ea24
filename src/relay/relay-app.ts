// The relay face's routes (/v1, /pg, /mj, /suno): wiring only. Each endpoint hands the raw request to the
// pipeline (Elysia does not parse bodies here: the relay forwards the client's own bytes).
import { Elysia } from "elysia";
import { AppError } from "../errors/app-error.ts";
import { clientAddress } from "../http/client-address.ts";
import { relayTranslator } from "./relay-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { authenticateToken } from "./auth/token-auth.ts";
import { startRelayCaches } from "./caches/relay-caches.ts";
import { startIdleCollection } from "./idle-collection.ts";
import { endpoints, type EndpointSpec } from "./endpoints.ts";
import { billingSubscription, billingUsage } from "./billing-compat.ts";
import { anthropicModelInfo, anthropicModelPage, speaksAnthropic } from "./anthropic-models.ts";
import { modelObjects, modelsForCaller } from "./models-list.ts";
import { codecFor } from "./inbound/codecs.ts";
import { inboundRoutes } from "./inbound/inbound-routes.ts";
import { playgroundRoutes } from "./playground.ts";
import { midjourneyRoutes } from "./tasks/midjourney/mj-routes.ts";
import { sunoRoutes } from "./tasks/suno/suno-routes.ts";
import { relayErrorParts, relayErrorPartsResponse, relayHeaders } from "./pipeline/relay-errors.ts";
import { logRelayFailure } from "./pipeline/failure-log.ts";
import { relayRequest } from "./pipeline/relay-pipeline.ts";
import { newRequestId } from "./request-id.ts";
import type { RelayTimeouts } from "./pipeline/attempt-types.ts";
import type { IdleTimeoutServer } from "./pipeline/connection-idle.ts";
import type { RelayCaller } from "./relay-context.ts";
import type { InboundFormat } from "./providers/adaptor.ts";

type Server = Parameters<typeof clientAddress>[1];

const notImplemented = () =>
  new Response(
    JSON.stringify({ error: { message: "API not implemented", type: "new_api_error", param: "", code: "api_not_implemented" } }),
    {
      status: 501,
      headers: { "content-type": "application/json; charset=utf-8", "access-control-allow-origin": "*" },
    },
  );

const preflight = ({ request }: { request: Request }) =>
  new Response(null, {
    status: 204,
    headers: {
      "access-control-allow-origin": "*",
      "access-control-allow-methods": "GET, POST, DELETE, OPTIONS",
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "authorization, content-type",
      "access-control-max-age": "86400",
    },
  });

export function relayApp(deps: WebDeps) {
  const { config } = deps;
  startRelayCaches();
  startIdleCollection();
  const timeouts: RelayTimeouts = { relayMs: config.relayTimeoutSeconds * 1000, streamIdleMs: config.streamingTimeoutSeconds * 1000 };
  /** The caller by its key; a vendor's format may carry the key in its own header or query. */
  const viaToken =
    (request: Request, server: Server, format: InboundFormat = "openai") =>
    () =>
      authenticateToken(
        request.headers,
        () => clientAddress(request, server, config.trustProxy),
        format === "openai" ? undefined : codecFor(format).keyText(request),
      );
  const addressOf = (request: Request, server: Server) => () => clientAddress(request, server, config.trustProxy);
  const relayWith = (endpoint: EndpointSpec, request: Request, server: Server, pathModel?: string) =>
    relayRequest({
      request,
      endpoint,
      authenticate: viaToken(request, server, endpoint.format),
      pathModel,
      timeouts,
      bodyLimits: config.bodyLimits,
      server: server as IdleTimeoutServer,
      clientAddress: addressOf(request, server),
    });
  /** A refused model list or billing report: answered in the client's format and logged. */
  const refused = (error: unknown, request: Request, server: Server, requestId: string, format: InboundFormat = "openai") => {
    const parts = relayErrorParts(error, relayTranslator(request), requestId);
    logRelayFailure({ request, requestId, startedAt: performance.now(), error, parts, clientAddress: addressOf(request, server) });
    return relayErrorPartsResponse(parts, requestId, format);
  };
  const relay =
    (endpoint: EndpointSpec) =>
    ({ request, server }: { request: Request; server: Server }) =>
      relayWith(endpoint, request, server);

  /** The Models API for Anthropic's clients: their shapes, their errors, their key header. */
  const listModelsForAnthropic = async (request: Request, server: Server, one?: string) => {
    const requestId = newRequestId();
    try {
      const models = await modelsForCaller(await viaToken(request, server, "claude")());
      const headers = { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId) };
      if (one === undefined) {
        return new Response(JSON.stringify(anthropicModelPage(models, new URL(request.url).searchParams)), { headers });
      }
      if (!models.includes(one)) throw new AppError("not_found", "模型 {{model}} 不存在", { model: one }, { code: "not_found_error" });
      return new Response(JSON.stringify(anthropicModelInfo(one)), { headers });
    } catch (error) {
      return refused(error, request, server, requestId, "claude");
    }
  };

  const listModels = async (request: Request, server: Server, one?: string) => {
    if (speaksAnthropic(request)) return listModelsForAnthropic(request, server, one);
    const requestId = newRequestId();
    try {
      const models = await modelsForCaller(await viaToken(request, server)());
      const headers = { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId) };
      if (one === undefined)
        return new Response(JSON.stringify({ success: true, object: "list", data: await modelObjects(models) }), { headers });
      if (models.includes(one)) return new Response(JSON.stringify((await modelObjects([one]))[0]), { headers });
      // OpenAI answers 404 here (new-api answered 200 with the error; the SDKs expect 404).
      const error = {
        message: `The model '${one}' does not exist`,
        type: "invalid_request_error",
        param: "model",
        code: "model_not_found",
      };
      return new Response(JSON.stringify({ error }), { status: 404, headers });
    } catch (error) {
      return refused(error, request, server, requestId);
    }
  };

  const billing =
    (report: (caller: RelayCaller) => Promise<unknown>) =>
    async ({ request, server }: { request: Request; server: Server }) => {
      const requestId = newRequestId();
      try {
        const body = await report(await viaToken(request, server)());
        return new Response(JSON.stringify(body), {
          headers: { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId) },
        });
      } catch (error) {
        return refused(error, request, server, requestId);
      }
    };

  const parse = { parse: "none" as const };
  return new Elysia({ name: "relay" })
    .post("/v1/chat/completions", relay(endpoints.chat), parse)
    .post("/v1/completions", relay(endpoints.completions), parse)
    .post("/v1/embeddings", relay(endpoints.embeddings), parse)
    .post(
      "/v1/engines/:model/embeddings",
      ({ request, server, params }) =>
        relayRequest({
          request,
          endpoint: endpoints.embeddings,
          authenticate: viaToken(request, server),
          pathModel: params.model,
          timeouts,
          bodyLimits: config.bodyLimits,
          server: server as IdleTimeoutServer,
          clientAddress: addressOf(request, server),
        }),
      parse,
    )
    .post("/v1/moderations", relay(endpoints.moderations), parse)
    .post("/v1/rerank", relay(endpoints.rerank), parse)
    .post("/v1/images/generations", relay(endpoints.imageGeneration), parse)
    .post("/v1/images/edits", relay(endpoints.imageEdit), parse)
    .post("/v1/audio/speech", relay(endpoints.speech), parse)
    .post("/v1/audio/transcriptions", relay(endpoints.transcription), parse)
    .post("/v1/audio/translations", relay(endpoints.translation), parse)
    .get("/v1/models", ({ request, server }) => listModels(request, server))
    .get("/v1/models/*", ({ request, server, params }) => listModels(request, server, decodeURIComponent(params["*"])))
    .post("/v1/images/variations", notImplemented, parse)
    .delete("/v1/models/*", notImplemented)
    .all("/v1/files*", notImplemented, parse)
    .all("/v1/fine-tunes*", notImplemented, parse)
    .get("/dashboard/billing/subscription", billing(billingSubscription))
    .get("/v1/dashboard/billing/subscription", billing(billingSubscription))
    .get("/dashboard/billing/usage", billing(billingUsage))
    .get("/v1/dashboard/billing/usage", billing(billingUsage))
    .use(
      inboundRoutes({
        relay: (endpoint, request, server, pathModel) => relayWith(endpoint, request, server as Server, pathModel),
        authenticate: (request, server, format) => viaToken(request, server as Server, format)(),
        jsonLimitBytes: config.bodyLimits.relayJson,
      }),
    )
    .options("/v1/*", preflight)
    .options("/v1beta/*", preflight)
    .options("/dashboard/*", preflight)
    .options("/pg/*", preflight)
    .options("/mj/*", preflight)
    .options("/suno/*", preflight)
    .use(midjourneyRoutes((request, server) => viaToken(request, server as Server), config.bodyLimits.relayJson))
    .use(sunoRoutes((request, server) => viaToken(request, server as Server), config.bodyLimits.relayJson))
    .use(playgroundRoutes(deps, timeouts));
}
