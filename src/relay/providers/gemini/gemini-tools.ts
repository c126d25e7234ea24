// OpenAI tools as Gemini function declarations, and tool_choice as the function calling config.
// Gemini's `parameters` is an OpenAPI-style Schema that refuses JSON Schema keywords it does not
// know (additionalProperties, $schema, strict...), so schemas are reduced to the fields the
// Schema object defines; a type list such as ["string","null"] becomes the type plus nullable.
import type { ChatFunction, ChatTool, ChatToolChoice } from "../openai-chat-wire.ts";
import { isJsonObject, unverified } from "../unverified.ts";
import type { GeminiFunctionDeclaration, GeminiSchema, GeminiTool, GeminiToolConfig } from "./gemini-wire.ts";

type Json = { [key: string]: unknown };

/** The fields of the API's Schema object. */
const schemaFields = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

const isObject = isJsonObject;

/** A JSON Schema reduced to what Gemini's Schema accepts. */
export function geminiSchema(schema: unknown): GeminiSchema | undefined {
  if (!isObject(schema)) return undefined;
  const result: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!schemaFields.has(key)) continue;
    if (key === "type" && Array.isArray(value)) {
      const types = value.filter((type) => type !== "null");
      if (types.length !== value.length) result.nullable = true;
      if (types[0] !== undefined) result.type = types[0];
    } else if (key === "properties" && isObject(value)) {
      const properties: Json = {};
      for (const [name, property] of Object.entries(value)) properties[name] = geminiSchema(property) ?? {};
      result.properties = properties;
    } else if (key === "items") {
      const items = geminiSchema(value);
      if (items) result.items = items;
    } else if (key === "anyOf" && Array.isArray(value)) {
      result.anyOf = value.map((entry) => geminiSchema(entry) ?? {});
    } else if (key === "enum" && Array.isArray(value)) {
      result.enum = value.map(String);
    } else {
      result[key] = value;
    }
  }
  return result;
}

/** An object schema without properties says "no arguments": Gemini wants no parameters then. */
function parametersOf(schema: unknown): GeminiSchema | undefined {
  const cleaned = geminiSchema(schema);
  if (!cleaned) return undefined;
  if (cleaned.type === "object" && (!isObject(cleaned.properties) || Object.keys(cleaned.properties).length === 0)) return undefined;
  return cleaned;
}

/** tools: [{functionDeclarations: [...]}], or undefined when the client sent no function tools. */
export function toolsOf(tools: unknown): GeminiTool[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const declarations: GeminiFunctionDeclaration[] = [];
  for (const value of tools) {
    const tool = unverified<ChatTool>(value);
    const fn = unverified<ChatFunction>(tool?.function);
    if (tool?.type !== "function" || typeof fn?.name !== "string") continue;
    const declaration: GeminiFunctionDeclaration = { name: fn.name };
    if (typeof fn.description === "string" && fn.description) declaration.description = fn.description;
    const parameters = parametersOf(fn.parameters);
    if (parameters) declaration.parameters = parameters;
    declarations.push(declaration);
  }
  return declarations.length ? [{ functionDeclarations: declarations }] : undefined;
}

/** tool_choice as toolConfig.functionCallingConfig (auto, none, required, or one named function). */
export function toolConfigOf(choice: unknown): GeminiToolConfig | undefined {
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  const named = unverified<Exclude<ChatToolChoice, string>["function"]>(
    unverified<Exclude<ChatToolChoice, string>>(choice)?.function,
  )?.name;
  if (typeof named === "string") return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [named] } };
  return undefined;
}
