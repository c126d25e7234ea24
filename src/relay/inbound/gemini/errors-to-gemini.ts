// Errors in Google's shape: {"error":{"code":<HTTP status>,"message":...,"status":<google.rpc
// code name>}}, the name given by the status as Google's API design guide maps them.
import type { ErrorFacts } from "../inbound-codec.ts";
import type { GeminiErrorBody } from "../../providers/gemini/gemini-wire.ts";

function statusName(status: number): string {
  switch (status) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "ABORTED";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 499:
      return "CANCELLED";
    case 501:
      return "UNIMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

export function geminiErrorBody(error: ErrorFacts): GeminiErrorBody {
  return { error: { code: error.status, message: error.message, status: statusName(error.status) } };
}
