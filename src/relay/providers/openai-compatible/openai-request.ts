// The upstream body of an OpenAI-style call. The client's bytes go out untouched unless something
// must change (the mapped model name, the usage request on streams, a vendor's quirks); then only
// those fields change and every field we do not know passes through.
import type { RelayCall } from "../adaptor.ts";

export type RequestRules = {
  /** The vendor accepts stream_options.include_usage: ask for the usage chunk on streams. */
  streamUsage: boolean;
  /** OpenAI's reasoning-model rules (o1/o3/o4: max_completion_tokens, no temperature, developer role). */
  reasoningModels: boolean;
  /** Keep only these top-level fields (vendors that refuse fields they do not know). */
  allowedFields?: ReadonlySet<string>;
  /** The vendor documents max_tokens only: max_completion_tokens is sent under that name. */
  maxTokensOnly?: boolean;
};

const effortSuffix = /-(high|medium|low)$/;

/** The reasoning effort named by a model suffix such as "o3-mini-high". */
export function reasoningEffortSuffix(model: string): string | undefined {
  return isReasoningModel(model) ? effortSuffix.exec(model)?.[1] : undefined;
}

function isReasoningModel(model: string): boolean {
  return /^o[1-9]/.test(model);
}

/** Models whose system prompt must be sent with the developer role. */
function wantsDeveloperRole(model: string): boolean {
  return model === "o1" || model.startsWith("o1-2024-12-17") || /^o[3-9]/.test(model);
}

function applyReasoningRules(body: Record<string, unknown>, model: string): string {
  const effort = reasoningEffortSuffix(model);
  let upstreamModel = model;
  if (effort) {
    upstreamModel = model.replace(effortSuffix, "");
    body.reasoning_effort ??= effort;
  }
  if (body.max_tokens !== undefined && body.max_completion_tokens === undefined) {
    body.max_completion_tokens = body.max_tokens;
  }
  delete body.max_tokens;
  delete body.temperature;
  if (wantsDeveloperRole(upstreamModel) && Array.isArray(body.messages) && body.messages.length > 0) {
    const [first, ...rest] = body.messages as Record<string, unknown>[];
    if (first?.role === "system") body.messages = [{ ...first, role: "developer" }, ...rest];
  }
  return upstreamModel;
}

/** The JSON body to send, or the client's own bytes when nothing had to change. */
export function buildJsonBody(call: RelayCall, rules: RequestRules): BodyInit {
  const source = call.json;
  if (!source) return call.rawBody;
  let body: Record<string, unknown> | undefined;
  const edit = () => (body ??= { ...source });

  let upstreamModel = call.upstreamModel;
  if (rules.reasoningModels && call.endpoint === "chat" && isReasoningModel(upstreamModel)) {
    upstreamModel = applyReasoningRules(edit(), upstreamModel);
  }
  if (upstreamModel !== source.model) edit().model = upstreamModel;

  if (call.stream) {
    if (rules.streamUsage) {
      if (!call.clientWantsUsage) {
        const options = typeof source.stream_options === "object" && source.stream_options ? source.stream_options : {};
        edit().stream_options = { ...options, include_usage: true };
      }
    } else if (source.stream_options !== undefined) {
      // Vendors without the option reject it ("Unknown parameter"); usage is counted locally.
      delete edit().stream_options;
    }
  }
  if (rules.maxTokensOnly && call.endpoint === "chat" && source.max_completion_tokens != null) {
    const body = edit();
    body.max_tokens = body.max_completion_tokens;
    delete body.max_completion_tokens;
  }
  if (rules.allowedFields) {
    for (const field of Object.keys(body ?? source)) {
      if (!rules.allowedFields.has(field)) delete edit()[field];
    }
  }
  return body ? JSON.stringify(body) : call.rawBody;
}

/**
 * The multipart body to send: the client's bytes, rebuilt only when the model was renamed. An
 * empty content type means "let fetch write it" (a rebuilt form gets a new boundary).
 */
export function buildMultipartBody(call: RelayCall): { body: BodyInit; contentType: string } {
  if (!call.form || call.upstreamModel === call.model) return { body: call.rawBody, contentType: call.contentType };
  const form = new FormData();
  for (const [name, value] of call.form.entries()) form.append(name, name === "model" ? call.upstreamModel : value);
  return { body: form, contentType: "" };
}
