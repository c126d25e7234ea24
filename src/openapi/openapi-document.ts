// The OpenAPI 3.1 document of /api and /v1, built from the routes the app really registered
// (Elysia's route list) and the catalogue entries that document them. Request bodies are the
// services' zod schemas turned into JSON Schema by zod itself (z.toJSONSchema, input side), so
// what the document says a body may hold is what parseInput accepts. A registered route without
// an entry still appears, marked x-undocumented (the test forbids any). Summaries are catalog keys
// (the apidocs namespace), written into the document in the language asked for: English for
// tools, the visitor's on the console's page.
import { z } from "zod";
import type { Translate } from "../i18n/i18n.ts";
import { productVersion } from "../version.ts";
import { apiOperations } from "./api-operations.ts";
import type { Access, Operation, OperationCatalogue } from "./operations.ts";
import { relayOperations } from "./relay-operations.ts";

export type RegisteredRoute = { method: string; path: string };

const catalogue: OperationCatalogue = { ...apiOperations, ...relayOperations };

export function catalogueKeys(): string[] {
  return Object.keys(catalogue);
}

/** Only the faces the document covers. */
export function isDocumentedFace(path: string): boolean {
  return path.startsWith("/api/") || path === "/api" || path.startsWith("/v1/") || path === "/v1";
}

/** Elysia's "/api/user/:id" and "/v1/models/*" -> OpenAPI's "/api/user/{id}" and "/v1/models/{rest}". */
export function openApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, "{$1}").replace(/\*/g, "{rest}");
}

const everyMethod = ["get", "post", "put", "patch", "delete"];

function methodsOf(method: string): string[] {
  return method === "ALL" ? everyMethod : [method.toLowerCase()];
}

const roleNeeded: Partial<Record<Access, string>> = { user: "common user (1)", admin: "admin (10)", root: "super admin (100)" };

function securityOf(access: Access): Record<string, string[]>[] {
  if (access === "relay") return [{ relayToken: [] }];
  if (access === "user" || access === "admin" || access === "root") {
    return [
      { session: [], userId: [] },
      { accessToken: [], userId: [] },
    ];
  }
  return [];
}

function bodySchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  return json;
}

function operationObject(method: string, path: string, entry: Operation | undefined, translate: Translate) {
  const isApi = path.startsWith("/api");
  const parameters: Record<string, unknown>[] = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => ({
    name,
    in: "path",
    required: true,
    schema: { type: "string" },
    ...(name === "rest" ? { description: "the rest of the path" } : {}),
  }));
  for (const query of entry?.query ?? []) {
    parameters.push({
      name: query.name,
      in: "query",
      required: false,
      description: query.description,
      schema: { type: query.type ?? "string" },
    });
  }
  const operation: Record<string, unknown> = {
    operationId: `${method}${path.replace(/[{}]/g, "").replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ? next.toUpperCase() : ""))}`,
    tags: [entry?.tag ?? "Undocumented"],
    summary: entry ? translate(entry.summary) : "Undocumented",
    security: securityOf(entry?.access ?? "public"),
    parameters,
    responses: isApi
      ? {
          "200": {
            description: "The envelope: success false carries the reason in message",
            content: { "application/json": { schema: { $ref: "#/components/schemas/Envelope" } } },
          },
          "401": { description: "Not signed in, or New-Api-User missing or not the caller" },
          "429": { description: "Rate limited" },
        }
      : {
          "200": { description: "OpenAI's answer (or stream)" },
          default: {
            description: "An OpenAI error object",
            content: { "application/json": { schema: { $ref: "#/components/schemas/OpenAIError" } } },
          },
        },
  };
  const notes = [
    entry?.description,
    entry?.access && roleNeeded[entry.access] ? `Needs at least: ${roleNeeded[entry.access]}.` : undefined,
  ];
  if (entry?.access === "payment") notes.push("Authenticated by the payment provider's signature.");
  if (notes.some(Boolean)) operation.description = notes.filter(Boolean).join(" ");
  if (entry) operation["x-access"] = entry.access;
  else operation["x-undocumented"] = true;
  if (entry?.body) {
    operation.requestBody = { required: true, content: { "application/json": { schema: bodySchema(entry.body) } } };
  } else if (entry?.bodyNote) {
    const type = entry.bodyNote.startsWith("multipart") ? "multipart/form-data" : "application/json";
    operation.requestBody = { required: true, description: entry.bodyNote, content: { [type]: { schema: { type: "object" } } } };
  }
  return operation;
}

export function buildOpenApiDocument(routes: readonly RegisteredRoute[], translate: Translate) {
  const paths: Record<string, Record<string, unknown>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (!isDocumentedFace(route.path)) continue;
    const entry = catalogue[`${route.method} ${route.path}`];
    const path = openApiPath(route.path);
    for (const method of methodsOf(route.method)) {
      paths[path] ??= {};
      paths[path][method] = operationObject(method, path, entry, translate);
    }
    tags.add(entry?.tag ?? "Undocumented");
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Switchyard API",
      version: productVersion,
      description:
        "The JSON API (/api, new-api compatible: every answer is {success, message, data}) and the relay (/v1, OpenAI compatible). " +
        "/api calls from scripts send the system access token in Authorization and the user's id in New-Api-User.",
    },
    externalDocs: {
      description: "OpenAI's API reference (the relay's request and answer bodies)",
      url: "https://platform.openai.com/docs/api-reference",
    },
    tags: [...tags].sort().map((name) => ({ name })),
    paths,
    components: {
      securitySchemes: {
        session: { type: "apiKey", in: "cookie", name: "session", description: "the console's session cookie (POST /api/user/login)" },
        accessToken: { type: "apiKey", in: "header", name: "Authorization", description: "the system access token (GET /api/user/token)" },
        userId: { type: "apiKey", in: "header", name: "New-Api-User", description: "the signed-in user's id, required with either" },
        relayToken: { type: "http", scheme: "bearer", description: "an sk- token (also accepted without Bearer or sk-)" },
      },
      schemas: {
        Envelope: {
          type: "object",
          required: ["success", "message"],
          properties: { success: { type: "boolean" }, message: { type: "string" }, data: {} },
        },
        OpenAIError: {
          type: "object",
          required: ["error"],
          properties: {
            error: {
              type: "object",
              properties: {
                message: { type: "string" },
                type: { type: "string" },
                param: { type: ["string", "null"] },
                code: { type: ["string", "null"] },
              },
            },
          },
        },
      },
    },
  };
}

export type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;
