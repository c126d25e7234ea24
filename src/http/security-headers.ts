// Headers every response carries. The console's Content-Security-Policy is set per page
// (it needs that page's nonce), in console/render-page.ts.
//
// Relay answers carry nosniff themselves (relay/pipeline/relay-errors.ts relayHeaders): headers
// set here make Elysia copy every response into a new one with merged headers, a cost the relay's
// hot path does not pay; framing and referrer rules mean nothing to its machine clients.
import { Elysia } from "elysia";
import { faceOf } from "../faces.ts";

/** The path of a request URL without parsing it (the URL is absolute: scheme://host/path). */
export function pathOfUrl(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  return start === -1 ? "/" : url.slice(start);
}

export const securityHeaders = () =>
  new Elysia({ name: "security-headers" }).onRequest(({ request, set }) => {
    if (faceOf(pathOfUrl(request.url)) === "relay") return;
    set.headers["x-content-type-options"] = "nosniff";
    set.headers["referrer-policy"] = "same-origin";
    set.headers["x-frame-options"] = "SAMEORIGIN";
  });
