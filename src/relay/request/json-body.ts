// The JSON body of a relay request (OpenAI, vendor formats, count_tokens, drawing and music tasks),
// read one way everywhere: within the endpoint's size limit (413 while it arrives,
// http/read-body.ts), its nesting checked before it is parsed (400, json-depth.ts), then parsed.
// Bodies under `slicedParseFrom` are parsed by JSON.parse at once, as ever (most requests: a
// few kilobytes, a few microseconds); larger ones in slices that let the event loop turn
// (json-in-slices.ts), so no body holds up the requests around it while it is parsed.
import { AppError } from "../../errors/app-error.ts";
import { readBodyWithin } from "../../http/read-body.ts";
import { jsonDepthWithin, maxJsonDepth } from "./json-depth.ts";
import { parseJsonInSlices } from "./json-in-slices.ts";

/** From this size on a body is parsed in slices (about 50 ms of JSON.parse at worst below it). */
const slicedParseFrom = 512 * 1024;

/**
 * The most array elements and object members a body may hold. Everything after the parse walks
 * the value on the event loop in one go (the prompt's estimate, a conversion between formats,
 * JSON.stringify of what goes upstream), each step taking time in proportion: three million
 * values (600,000 messages) held the loop about a second. A million is well past any real call
 * (Anthropic's own limit is 100,000 messages, about 600,000 values). A body under
 * `slicedParseFrom` cannot hold that many (two bytes a value at least), so only large bodies are
 * counted, on the way through the sliced parse.
 */
const maxJsonValues = 1_000_000;

/** A body large enough that the steps after its parse may wait for their turn of the loop (loop-turns.ts). */
export const isLargeBody = (bytes: Uint8Array) => bytes.byteLength >= slicedParseFrom;

const invalid = (key: string, params?: Record<string, string | number>) =>
  new AppError("invalid", key, params, { code: "invalid_request" });
const tooDeep = () => invalid("请求体嵌套超过 {{depth}} 层", { depth: maxJsonDepth });
const notJson = () => invalid("请求体不是合法的 JSON");

/** A small body, at once (no promise: the common case stays as cheap as it was). */
function parseSmall(bytes: Uint8Array): unknown {
  if (!jsonDepthWithin(bytes)) throw tooDeep();
  try {
    return JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw notJson();
  }
}

async function parseLarge(bytes: Uint8Array): Promise<unknown> {
  let parsed: Awaited<ReturnType<typeof parseJsonInSlices>>;
  try {
    parsed = await parseJsonInSlices(bytes, { maxDepth: maxJsonDepth, maxValues: maxJsonValues });
  } catch {
    throw notJson();
  }
  if (parsed.refused === "too-deep") throw tooDeep();
  if (parsed.refused) throw invalid("请求体包含的 JSON 值超过 {{count}} 个", { count: maxJsonValues });
  return parsed.value;
}

function asObject(json: unknown): Record<string, unknown> {
  if (!json || typeof json !== "object" || Array.isArray(json)) throw notJson();
  return json as Record<string, unknown>;
}

/**
 * A JSON object body (anything else, an array, a string, not JSON, is refused with 400): at once
 * for a small body, a promise for a large one; 400 for a body nested too deep or holding too many values.
 */
export function parseJsonObjectBody(bytes: Uint8Array): Record<string, unknown> | Promise<Record<string, unknown>> {
  return isLargeBody(bytes) ? parseLarge(bytes).then(asObject) : asObject(parseSmall(bytes));
}

/** Reads the request's body within `limitBytes` (413 past it) and parses it as a JSON object. */
export async function readJsonObjectWithin(request: Request, limitBytes: number): Promise<Record<string, unknown>> {
  return await parseJsonObjectBody(await readBodyWithin(request, limitBytes));
}
