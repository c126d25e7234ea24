// Reads a client's request body once: the bytes (forwarded untouched when nothing changes), the
// parsed JSON or multipart form, and what the pipeline needs from it (model, stream, usage
// request, completion allowance). Malformed requests are refused here with new-api's checks.
import { AppError } from "../../errors/app-error.ts";
import { readBodyWithin } from "../../http/read-body.ts";
import type { EndpointSpec } from "../endpoints.ts";
import { codecFor } from "../inbound/codecs.ts";
import type { ChatConversion } from "../inbound/inbound-codec.ts";
import type { Bytes, RelayCall } from "../providers/adaptor.ts";
import type { AnswerKeeper } from "./answer-keeper.ts";
import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";
import { isLargeBody, parseJsonObjectBody } from "./json-body.ts";

export type ParsedCall = Omit<RelayCall, "upstreamModel" | "countPromptTokens"> & {
  /** max_tokens / max_completion_tokens (or the format's kin) when the client set one. */
  maxTokens: number | undefined;
  /**
   * A call in a vendor's format (Claude, Gemini, Responses) as an OpenAI chat request: what the
   * prompt is counted and checked on, and what channels that do not speak the format receive.
   */
  asChat?: ChatConversion;
  /**
   * The client's body as the answer echoes it (settings, previous_response_id) when `json` was
   * completed from state the gateway keeps (Responses API).
   */
  echo?: Record<string, unknown>;
  /** The one channel that can serve the call: the one keeping the upstream state it continues. */
  requiredChannelId?: number;
  /** Keeps the answer (Responses API storage); see answer-keeper.ts. */
  keeper?: AnswerKeeper;
};

const invalidRequest = (key: string, params?: Record<string, string | number>) =>
  new AppError("invalid", key, params, { code: "invalid_request" });

const maxTokensLimit = 2 ** 31 / 2;

function readMaxTokens(json: Record<string, unknown>): number | undefined {
  const value = json.max_completion_tokens ?? json.max_tokens;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > maxTokensLimit) {
    throw invalidRequest("max_tokens 无效");
  }
  return value === 0 ? undefined : value;
}

function checkRequired(spec: EndpointSpec, json: Record<string, unknown>): void {
  const missing = (field: string) => invalidRequest("缺少必填字段 {{field}}", { field });
  switch (spec.kind) {
    case "chat":
      if (!Array.isArray(json.messages) || json.messages.length === 0) throw missing("messages");
      break;
    case "completions":
      if (json.prompt === undefined || json.prompt === null) throw missing("prompt");
      break;
    case "embeddings":
    case "moderations":
      if (json.input === undefined || json.input === null) throw missing("input");
      break;
    case "rerank": {
      const absent = [
        typeof json.query === "string" && json.query !== "" ? "" : "query",
        Array.isArray(json.documents) ? "" : "documents",
      ].filter(Boolean);
      if (absent.length > 0) throw missing(absent.join(", "));
      if ((json.documents as unknown[]).length === 0) throw invalidRequest("documents 不能为空");
      break;
    }
    case "image-generation":
      if (typeof json.prompt !== "string" || json.prompt === "") throw missing("prompt");
      break;
    case "speech":
      if (typeof json.input !== "string" || json.input === "") throw missing("input");
      break;
  }
}

/** A call in a vendor's own format: the format's reader, and its chat version made once. */
function readNativeCall(
  spec: EndpointSpec,
  headers: Headers,
  body: Record<string, unknown>,
  rawBody: Bytes,
  contentType: string,
  pathModel?: string,
): ParsedCall {
  const format = spec.format!;
  const codec = codecFor(format);
  const read = codec.read(body, pathModel);
  const stream = spec.streamable && (spec.alwaysStreams === true || read.stream);
  return {
    endpoint: spec.kind,
    format,
    model: read.model,
    stream,
    clientWantsUsage: false,
    json: body,
    form: null,
    rawBody,
    contentType,
    maxTokens: read.maxTokens,
    asChat: codec.toChat(body, read.model, stream),
    vendorHeaders: codec.vendorHeaders?.(headers),
  };
}

async function readJsonCall(
  spec: EndpointSpec,
  headers: Headers,
  rawBody: Bytes,
  contentType: string,
  pathModel?: string,
): Promise<ParsedCall> {
  const parsed = parseJsonObjectBody(rawBody);
  const body = parsed instanceof Promise ? await parsed : parsed;
  // A large body was parsed in slices; its conversion (a vendor's format) is one more step.
  if (isLargeBody(rawBody) && turnIsLong(performance.now())) await waitForShortTurn();
  if (spec.format && spec.format !== "openai") return readNativeCall(spec, headers, body, rawBody, contentType, pathModel);
  const model = typeof body.model === "string" && body.model.trim() !== "" ? body.model.trim() : (pathModel ?? spec.defaultModel);
  if (!model) throw invalidRequest("缺少必填字段 {{field}}", { field: "model" });
  checkRequired(spec, body);
  const stream = spec.streamable && body.stream === true;
  const options = body.stream_options as { include_usage?: unknown } | undefined;
  return {
    endpoint: spec.kind,
    format: "openai",
    model,
    stream,
    clientWantsUsage: stream && options?.include_usage === true,
    json: body,
    form: null,
    rawBody,
    contentType,
    maxTokens: readMaxTokens(body),
  };
}

async function readMultipartCall(spec: EndpointSpec, rawBody: Bytes, contentType: string): Promise<ParsedCall> {
  let form: FormData;
  try {
    form = await new Response(rawBody, { headers: { "content-type": contentType } }).formData();
  } catch {
    throw invalidRequest("请求体不是合法的 multipart/form-data");
  }
  const field = form.get("model");
  const model = typeof field === "string" && field.trim() !== "" ? field.trim() : spec.defaultModel!;
  if (!(form.get("file") instanceof Blob) && !(form.get("image") instanceof Blob) && !(form.get("image[]") instanceof Blob)) {
    throw invalidRequest("缺少必填字段 {{field}}", { field: spec.kind === "image-edit" ? "image" : "file" });
  }
  return {
    endpoint: spec.kind,
    format: "openai",
    model,
    stream: false,
    clientWantsUsage: false,
    json: null,
    form,
    rawBody,
    contentType,
    maxTokens: undefined,
  };
}

/** Reads and checks the body, refusing it (413) as soon as more than `limitBytes` arrived. */
export async function readCall(request: Request, spec: EndpointSpec, limitBytes: number, pathModel?: string): Promise<ParsedCall> {
  const contentType = request.headers.get("content-type") ?? "";
  const rawBody = await readBodyWithin(request, limitBytes);
  if (spec.body === "multipart") {
    if (!contentType.startsWith("multipart/form-data")) throw invalidRequest("请求体必须是 multipart/form-data");
    return readMultipartCall(spec, rawBody, contentType);
  }
  return readJsonCall(spec, request.headers, rawBody, contentType || "application/json", pathModel);
}
