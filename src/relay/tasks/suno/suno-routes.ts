// The Suno routes of the relay (wiring only): submissions, and fetches from our store.
import { Elysia } from "elysia";
import { relayTranslator } from "../../relay-language.ts";
import type { Authenticator } from "../midjourney/mj-routes.ts";
import { fetchSunoTask, fetchSunoTasks } from "./suno-reads.ts";
import { submitSuno } from "./suno-submit.ts";

type Context = { request: Request; server: unknown; params: Record<string, string> };

/** `bodyLimit`: MAX_REQUEST_BODY_MB in bytes, for every body of these routes. */
export function sunoRoutes(authenticate: Authenticator, bodyLimit: number) {
  const read = (request: Request, server: unknown) => ({
    authenticate: authenticate(request, server),
    translate: relayTranslator(request),
    bodyLimit,
  });
  const parse = { parse: "none" as const };
  return new Elysia({ name: "relay-suno" })
    .post(
      "/suno/submit/:action",
      ({ request, server, params }: Context) =>
        submitSuno({
          request,
          action: params.action!,
          authenticate: authenticate(request, server),
          translate: relayTranslator(request),
          bodyLimit,
        }),
      parse,
    )
    .post("/suno/fetch", ({ request, server }: Context) => fetchSunoTasks(read(request, server), request), parse)
    .get("/suno/fetch/:id", ({ request, server, params }: Context) => fetchSunoTask(read(request, server), params.id!));
}
