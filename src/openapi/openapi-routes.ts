// GET /api/openapi.json: the API reference of the running app, built once per language from its
// routes. The console's reference page (console/pages/api-reference-page.tsx) reads the same
// document in the visitor's language; the JSON is English unless `lang` names another of ours.
import { Elysia } from "elysia";
import { translator } from "../i18n/i18n.ts";
import { matchLanguageTag, type Language } from "../i18n/languages.ts";
import { buildOpenApiDocument, type OpenApiDocument, type RegisteredRoute } from "./openapi-document.ts";

let routesOfApp: () => readonly RegisteredRoute[] = () => [];
const built = new Map<Language, OpenApiDocument>();

/** The document of the app in a language (its routes are read on first use, when all are registered). */
export function currentOpenApiDocument(language: Language = "en"): OpenApiDocument {
  let document = built.get(language);
  if (!document) {
    document = buildOpenApiDocument(routesOfApp(), translator(language));
    built.set(language, document);
  }
  return document;
}

export function openApiRoutes(routes: () => readonly RegisteredRoute[]) {
  routesOfApp = routes;
  built.clear();
  return new Elysia({ name: "openapi" }).get("/api/openapi.json", ({ query }) =>
    currentOpenApiDocument(matchLanguageTag(typeof query.lang === "string" ? query.lang : "") ?? "en"),
  );
}
