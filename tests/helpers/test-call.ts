// A RelayCall for the provider unit tests.
import type { EndpointKind, RelayCall } from "../../src/relay/providers/adaptor.ts";

export function testCall(json: Record<string, unknown>, overrides: Partial<RelayCall> = {}): RelayCall {
  const endpoint: EndpointKind = overrides.endpoint ?? "chat";
  const stream = json.stream === true;
  return {
    endpoint,
    format: "openai",
    model: String(json.model),
    upstreamModel: String(json.model),
    stream,
    clientWantsUsage: stream && (json.stream_options as { include_usage?: boolean } | undefined)?.include_usage === true,
    json,
    form: null,
    rawBody: new TextEncoder().encode(JSON.stringify(json)),
    contentType: "application/json",
    countPromptTokens: () => 7,
    ...overrides,
  };
}
