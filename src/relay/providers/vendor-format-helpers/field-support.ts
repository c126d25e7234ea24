// The OpenAI chat fields of the last two years, as each type that rewrites a request declares it
// handles them. A field the type maps to its vendor's equivalent passes; one the vendor has no
// equivalent for is refused with a 400 that names it, so it is never silently lost:
//   - max_tokens / max_completion_tokens: the output limit;
//   - reasoning_effort;
//   - response_format: json_object and json_schema ("text" is every vendor's default);
//   - parallel_tool_calls: true is every vendor's default; false needs a way to ask for one call
//     (Claude's disable_parallel_tool_use), or a vendor that never calls more than one tool;
//   - service_tier: "auto" and "default" ask for the vendor's ordinary service, anything else
//     (flex, priority, scale) needs the vendor's own tiers;
//   - modalities: the output kinds asked for; text is every chat vendor's.
// stream_options is the relay's own business (its usage chunk), never a vendor's. Kinds that pass
// the client's body on (the OpenAI-compatible family) declare nothing: the vendor reads the
// fields itself.
import { AppError } from "../../../errors/app-error.ts";
import type { RelayCall } from "../adaptor.ts";

export type FieldSupport = {
  /** max_tokens and max_completion_tokens reach the vendor's output limit. */
  outputLimit: boolean;
  reasoningEffort?: boolean;
  jsonObject?: boolean;
  jsonSchema?: boolean;
  /** How parallel_tool_calls: false is honoured: mapped to the vendor's switch, or the vendor calls one tool at most. */
  singleToolCall?: "mapped" | "always";
  /** service_tier values other than auto/default are mapped. */
  serviceTier?: boolean;
  /** Output modalities the type can produce (default: text). */
  modalities?: readonly string[];
};

function refuse(vendor: string, field: string): never {
  throw new AppError("invalid", "{{vendor}} 不支持请求字段 {{field}}，请去掉后重试", { vendor, field }, { code: "unsupported_field" });
}

const defaultTiers = new Set(["auto", "default"]);

/** Refuses (400) the first field of a chat call the type cannot carry to its vendor. */
export function refuseUnsupportedFields(call: RelayCall, vendor: string, support: FieldSupport): void {
  const json = call.json;
  if (!json || call.endpoint !== "chat") return;
  if (!support.outputLimit && !call.gatewayLimit) {
    if (json.max_completion_tokens !== undefined && json.max_completion_tokens !== null) refuse(vendor, "max_completion_tokens");
    if (json.max_tokens !== undefined && json.max_tokens !== null) refuse(vendor, "max_tokens");
  }
  if (!support.reasoningEffort && json.reasoning_effort !== undefined && json.reasoning_effort !== null) refuse(vendor, "reasoning_effort");
  const format = (json.response_format as { type?: unknown } | null | undefined)?.type;
  if (format === "json_object" && !support.jsonObject) refuse(vendor, "response_format.json_object");
  if (format === "json_schema" && !support.jsonSchema) refuse(vendor, "response_format.json_schema");
  const hasTools = (Array.isArray(json.tools) && json.tools.length > 0) || (Array.isArray(json.functions) && json.functions.length > 0);
  if (json.parallel_tool_calls === false && hasTools && !support.singleToolCall) refuse(vendor, "parallel_tool_calls");
  if (typeof json.service_tier === "string" && !defaultTiers.has(json.service_tier) && !support.serviceTier) refuse(vendor, "service_tier");
  if (Array.isArray(json.modalities)) {
    const allowed = support.modalities ?? ["text"];
    if (json.modalities.some((modality) => !allowed.includes(modality as string))) refuse(vendor, "modalities");
  }
}
