// The midjourney-proxy routes of the relay (wiring only), at /mj/... and behind a mode prefix
// (/mj-fast/mj/..., /mj-relax/mj/...): the mode is accepted and dropped, as the upstream's own
// path has none.
import { Elysia, NotFoundError } from "elysia";
import { relayTranslator } from "../../relay-language.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { submitKinds, type SubmitKind } from "./mj-actions.ts";
import { receiveDrawingNotice } from "./mj-notify.ts";
import { drawingImage, drawingImageSeed, fetchDrawing, listDrawingsByCondition } from "./mj-reads.ts";
import { submitDrawing } from "./mj-submit.ts";

type Server = unknown;
export type Authenticator = (request: Request, server: Server) => () => Promise<RelayCaller>;

type Context = { request: Request; server: Server; params: Record<string, string> | undefined };

function checkMode(params: Record<string, string> | undefined): void {
  if (params?.mode !== undefined && !params.mode.startsWith("mj-")) throw new NotFoundError();
}

/** `bodyLimit`: MAX_REQUEST_BODY_MB in bytes, for every body of these routes. */
export function midjourneyRoutes(authenticate: Authenticator, bodyLimit: number) {
  const read = (request: Request, server: Server) => ({
    authenticate: authenticate(request, server),
    translate: relayTranslator(request),
    bodyLimit,
  });
  const submit =
    (kind: SubmitKind) =>
    ({ request, server, params }: Context) => {
      checkMode(params);
      return submitDrawing({
        request,
        kind,
        path: kind === "insight-face" ? "/mj/insight-face/swap" : `/mj/submit/${kind}`,
        authenticate: authenticate(request, server),
        translate: relayTranslator(request),
        bodyLimit,
      });
    };
  const submitAny = (context: Context) => {
    const kind = context.params?.kind as SubmitKind;
    if (!(submitKinds as readonly string[]).includes(kind)) throw new NotFoundError();
    return submit(kind)(context);
  };
  const fetchOne = ({ request, server, params }: Context) => {
    checkMode(params);
    return fetchDrawing(read(request, server), params?.id ?? "");
  };
  const listSome = ({ request, server, params }: Context) => {
    checkMode(params);
    return listDrawingsByCondition(read(request, server), request);
  };
  const seed = ({ request, server, params }: Context) => {
    checkMode(params);
    return drawingImageSeed(read(request, server), params?.id ?? "");
  };
  const parse = { parse: "none" as const };
  return new Elysia({ name: "relay-midjourney" })
    .post("/mj/submit/:kind", submitAny, parse)
    .post("/:mode/mj/submit/:kind", submitAny, parse)
    .post("/mj/insight-face/swap", submit("insight-face"), parse)
    .post("/:mode/mj/insight-face/swap", submit("insight-face"), parse)
    .get("/mj/task/:id/fetch", fetchOne)
    .get("/:mode/mj/task/:id/fetch", fetchOne)
    .post("/mj/task/list-by-condition", listSome, parse)
    .post("/:mode/mj/task/list-by-condition", listSome, parse)
    .get("/mj/task/:id/image-seed", seed)
    .get("/:mode/mj/task/:id/image-seed", seed)
    .post("/mj/notify", ({ request }) => receiveDrawingNotice(request, relayTranslator(request), bodyLimit), parse)
    .get("/mj/image/:id", ({ params }) => drawingImage(params.id));
}
