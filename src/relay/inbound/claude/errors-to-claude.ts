// Errors in Anthropic's shape: {"type":"error","error":{"type":...,"message":...}}, the type
// named by the status as Anthropic's API reference lists them (400 invalid_request_error, 401
// authentication_error, 403 permission_error, 404 not_found_error, 413 request_too_large, 429
// rate_limit_error, 500 api_error, 529 overloaded_error). An upstream that already gave one of
// those types (a Claude channel) keeps it.
import type { ErrorFacts } from "../inbound-codec.ts";
import type { ClaudeError, ClaudeErrorBody, ClaudeErrorType } from "../../providers/claude/claude-wire.ts";

const anthropicTypes = new Set<string>([
  "invalid_request_error",
  "authentication_error",
  "billing_error",
  "permission_error",
  "not_found_error",
  "request_too_large",
  "rate_limit_error",
  "timeout_error",
  "api_error",
  "overloaded_error",
]);

function typeOfStatus(status: number): ClaudeErrorType {
  switch (status) {
    case 400:
      return "invalid_request_error";
    case 401:
      return "authentication_error";
    case 402:
      return "billing_error";
    case 403:
      return "permission_error";
    case 404:
      return "not_found_error";
    case 413:
      return "request_too_large";
    case 429:
      return "rate_limit_error";
    case 504:
      return "timeout_error";
    case 529:
      return "overloaded_error";
    default:
      return status >= 500 ? "api_error" : "invalid_request_error";
  }
}

const isClaudeErrorType = (type: string): type is ClaudeErrorType => anthropicTypes.has(type);

export function claudeErrorObject(error: ErrorFacts): ClaudeError {
  return { type: isClaudeErrorType(error.type) ? error.type : typeOfStatus(error.status), message: error.message };
}

export function claudeErrorBody(error: ErrorFacts): ClaudeErrorBody {
  return { type: "error", error: claudeErrorObject(error) };
}
