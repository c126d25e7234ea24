// Headers every response carries. The console's Content-Security-Policy is set per page
// (it needs that page's nonce), in console/render-page.ts.
import { Elysia } from "elysia";

export const securityHeaders = () =>
  new Elysia({ name: "security-headers" }).onRequest(({ set }) => {
    set.headers["x-content-type-options"] = "nosniff";
    set.headers["referrer-policy"] = "same-origin";
    set.headers["x-frame-options"] = "SAMEORIGIN";
  });
