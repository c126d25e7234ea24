// Google's REST APIs read JSON with proto3's rules: every field may be written in lowerCamelCase
// (what the SDKs send) or in its snake_case proto name (what the curl examples use), so a
// request is read under both names. The wire types (providers/gemini/gemini-wire.ts) name the
// camelCase field; `field` reads it unchecked, for the caller to narrow.
import { isJsonObject } from "../../providers/unverified.ts";
const snakeNames = new Map<string, string>();

function snake(name: string): string {
  let value = snakeNames.get(name);
  if (value === undefined) snakeNames.set(name, (value = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)));
  return value;
}

/** The field of T under its camelCase or snake_case name, not yet checked. */
export function field<T>(record: unknown, camelName: keyof T & string): unknown {
  // (A list is an object too: it has no such fields, as before.)
  if (!record || typeof record !== "object") return undefined;
  const object: { readonly [key: string]: unknown } = isJsonObject(record) ? record : {};
  return object[camelName] ?? object[snake(camelName)];
}

/**
 * A Gemini Schema (OpenAPI 3.0 subset, types in upper case such as "OBJECT") as JSON Schema for
 * chat tools and structured output: types lower-cased, `nullable` folded into the type, and
 * the ordering hint dropped.
 */
export function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (!schema || typeof schema !== "object") return schema;
  const result: { [key: string]: unknown } = {};
  const fields: { readonly [key: string]: unknown } = isJsonObject(schema) ? schema : {};
  for (const [key, value] of Object.entries(fields)) {
    if (key === "propertyOrdering" || key === "property_ordering" || key === "nullable") continue;
    if (key === "type" && typeof value === "string") result.type = value.toLowerCase();
    else if (key === "properties" && value && typeof value === "object") {
      result.properties = Object.fromEntries(Object.entries(value).map(([name, inner]) => [name, jsonSchemaOf(inner)]));
    } else if (key === "items" || key === "anyOf" || key === "any_of") result[key === "any_of" ? "anyOf" : key] = jsonSchemaOf(value);
    else result[key] = value;
  }
  if (fields.nullable === true && typeof result.type === "string") result.type = [result.type, "null"];
  return result;
}
