// Google's REST APIs read JSON with proto3's rules: every field may be written in lowerCamelCase
// (what the SDKs send) or in its snake_case proto name (what the curl examples use), so a
// request is read under both names.
const snakeNames = new Map<string, string>();

function snake(name: string): string {
  let value = snakeNames.get(name);
  if (value === undefined) snakeNames.set(name, (value = name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)));
  return value;
}

/** The field under its camelCase or snake_case name. */
export function field(record: unknown, camelName: string): any {
  if (!record || typeof record !== "object") return undefined;
  const object = record as Record<string, unknown>;
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
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema as Record<string, unknown>)) {
    if (key === "propertyOrdering" || key === "property_ordering" || key === "nullable") continue;
    if (key === "type" && typeof value === "string") result.type = value.toLowerCase();
    else if (key === "properties" && value && typeof value === "object") {
      result.properties = Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([name, inner]) => [name, jsonSchemaOf(inner)]));
    } else if (key === "items" || key === "anyOf" || key === "any_of") result[key === "any_of" ? "anyOf" : key] = jsonSchemaOf(value);
    else result[key] = value;
  }
  if ((schema as Record<string, unknown>).nullable === true && typeof result.type === "string") result.type = [result.type, "null"];
  return result;
}
