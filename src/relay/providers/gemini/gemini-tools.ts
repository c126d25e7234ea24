// OpenAI tools as Gemini function declarations, and tool_choice as the function calling config.
// Gemini's `parameters` is an OpenAPI-style Schema that refuses JSON Schema keywords it does not
// know (additionalProperties, $schema, strict...), so schemas are reduced to the fields the
// Schema object defines; a type list such as ["string","null"] becomes the type plus nullable.

type Json = Record<string, unknown>;

/** The fields of the API's Schema object. */
const schemaFields = new Set([
  "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties", "required",
  "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf", "propertyOrdering",
  "default", "items", "minimum", "maximum",
]);

const isObject = (value: unknown): value is Json => !!value && typeof value === "object" && !Array.isArray(value);

/** A JSON Schema reduced to what Gemini's Schema accepts. */
export function geminiSchema(schema: unknown): Json | undefined {
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
function parametersOf(schema: unknown): Json | undefined {
  const cleaned = geminiSchema(schema);
  if (!cleaned) return undefined;
  if (cleaned.type === "object" && (!isObject(cleaned.properties) || Object.keys(cleaned.properties).length === 0)) return undefined;
  return cleaned;
}

type OpenAITool = { type?: string; function?: { name?: unknown; description?: unknown; parameters?: unknown } };

/** tools: [{functionDeclarations: [...]}], or undefined when the client sent no function tools. */
export function toolsOf(tools: unknown): Json[] | undefined {
  if (!Array.isArray(tools)) return undefined;
  const declarations: Json[] = [];
  for (const tool of tools as OpenAITool[]) {
    if (tool?.type !== "function" || typeof tool.function?.name !== "string") continue;
    const declaration: Json = { name: tool.function.name };
    if (typeof tool.function.description === "string" && tool.function.description) declaration.description = tool.function.description;
    const parameters = parametersOf(tool.function.parameters);
    if (parameters) declaration.parameters = parameters;
    declarations.push(declaration);
  }
  return declarations.length ? [{ functionDeclarations: declarations }] : undefined;
}

/** tool_choice as toolConfig.functionCallingConfig (auto, none, required, or one named function). */
export function toolConfigOf(choice: unknown): Json | undefined {
  if (choice === "auto") return { functionCallingConfig: { mode: "AUTO" } };
  if (choice === "none") return { functionCallingConfig: { mode: "NONE" } };
  if (choice === "required") return { functionCallingConfig: { mode: "ANY" } };
  if (isObject(choice) && isObject(choice.function) && typeof choice.function.name === "string") {
    return { functionCallingConfig: { mode: "ANY", allowedFunctionNames: [choice.function.name] } };
  }
  return undefined;
}
