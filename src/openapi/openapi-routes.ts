// GET /api/openapi.json: the API reference of the running app, built once from its routes. The
// console's reference page (console/pages/api-reference-page.tsx) reads the same document.
import { Elysia } from "elysia";
import { buildOpenApiDocument, type OpenApiDocument, type RegisteredRoute } from "./openapi-document.ts";

let routesOfApp: () => readonly RegisteredRoute[] = () => [];
let built: OpenApiDocument | undefined;

/** The document of the app (its routes are read on first use, when all are registered). */
export function currentOpenApiDocument(): OpenApiDocument {
  built ??= buildOpenApiDocument(routesOfApp());
  return built;
}

export function openApiRoutes(routes: () => readonly RegisteredRoute[]) {
  routesOfApp = routes;
  built = undefined;
  return new Elysia({ name: "openapi" }).get("/api/openapi.json", () => currentOpenApiDocument());
}
