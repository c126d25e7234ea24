// Serves built assets. Hashed files under /assets/ never change, so browsers may keep them
// forever; the few unhashed public files (favicon, logo) are revalidated daily. A file with
// compressed forms (made at build time) is sent in the one the browser prefers, with
// `Vary: Accept-Encoding` so caches keep the forms apart.
import { Elysia } from "elysia";
import { negotiateEncoding } from "../../http/compression.ts";
import { assetFilePath, assetVariants } from "./asset-store.ts";

const immutable = "public, max-age=31536000, immutable";

function serve(request: Request, urlPath: string, cacheControl: string) {
  const path = assetFilePath(urlPath);
  if (!path) return undefined;
  const file = Bun.file(path);
  const variants = assetVariants(urlPath);
  if (!variants) return new Response(file, { headers: { "cache-control": cacheControl } });
  const headers = { "cache-control": cacheControl, vary: "Accept-Encoding", "content-type": file.type };
  const encoding = negotiateEncoding(request.headers.get("accept-encoding"));
  const variant = encoding ? variants[encoding] : undefined;
  if (!encoding || !variant) return new Response(file, { headers });
  return new Response(Bun.file(variant), { headers: { ...headers, "content-encoding": encoding } });
}

export const assetRoutes = () =>
  new Elysia({ name: "assets" })
    .get("/assets/*", ({ path, request, status }) => serve(request, path, immutable) ?? status(404, "Not Found"))
    .get("/favicon.ico", ({ request, status }) => serve(request, "/logo.svg", "public, max-age=86400") ?? status(404, "Not Found"))
    .get("/logo.svg", ({ request, status }) => serve(request, "/logo.svg", "public, max-age=86400") ?? status(404, "Not Found"));
