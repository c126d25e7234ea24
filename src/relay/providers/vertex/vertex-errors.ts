// Vertex AI failures. Its platform answers google.rpc errors like Gemini's (same verdicts: an
// UNAUTHENTICATED or PERMISSION_DENIED key disables the channel, RESOURCE_EXHAUSTED and 5xx are
// retried); Anthropic's models answer Claude's error objects, whose types the rules read as they
// are; and the token exchange answers OAuth errors ({"error": "invalid_grant", ...}), which mean
// the service-account key is dead or wrong: an authentication error, so the channel is disabled.
import type { UpstreamErrorDetails } from "../adaptor.ts";
import { claudeErrorOf } from "../claude/claude-to-chat-errors.ts";
import { parseGeminiError } from "../gemini/gemini-to-chat-errors.ts";

const deadKeyErrors = new Set(["invalid_grant", "invalid_client", "unauthorized_client", "access_denied"]);

export function parseVertexError(status: number, body: string): UpstreamErrorDetails {
  let parsed: { error?: unknown; error_description?: unknown } | undefined;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const claude = claudeErrorOf(parsed);
  if (claude) return claude;
  if (typeof parsed?.error === "string") {
    const description = typeof parsed.error_description === "string" ? parsed.error_description : parsed.error;
    const dead = deadKeyErrors.has(parsed.error);
    return {
      message: `OAuth token exchange failed: ${description}`,
      type: dead ? "authentication_error" : "invalid_request_error",
      code: dead ? "invalid_api_key" : parsed.error,
      param: null,
    };
  }
  return parseGeminiError(status, body);
}
