// Serves built assets. Hashed files under /assets/ never change, so browsers may keep them
// forever; the few unhashed public files (favicon, logo) are revalidated daily.
import { Elysia } from "elysia";
import { assetFilePath } from "./asset-store.ts";

const immutable = "public, max-age=31536000, immutable";

function serve(urlPath: string, cacheControl: string) {
  const path = assetFilePath(urlPath);
  if (!path) return undefined;
  return new Response(Bun.file(path), { headers: { "cache-control": cacheControl } });
}

export const assetRoutes = () =>
  new Elysia({ name: "assets" })
    .get("/assets/*", ({ path, status }) => serve(path, immutable) ?? status(404, "Not Found"))
    .get("/favicon.ico", ({ status }) => serve("/logo.svg", "public, max-age=86400") ?? status(404, "Not Found"))
    .get("/logo.svg", ({ status }) => serve("/logo.svg", "public, max-age=86400") ?? status(404, "Not Found"));
