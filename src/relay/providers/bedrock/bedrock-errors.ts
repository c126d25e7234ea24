// Bedrock's errors: the status says the class and the body {"message": "..."} says why (the
// exception name travels in a header the relay does not pass on, or in "__type" for some
// answers). Our error type follows the status, so the relay's rules come out right:
//   403 AccessDeniedException, UnrecognizedClientException (bad key), InvalidSignatureException
//       -> permission_error: the channel is taken out of service;
//   429 ThrottlingException, 5xx InternalServer / ServiceUnavailable -> retried on another channel;
//   400 ValidationException, 404 ResourceNotFoundException -> the request's fault, not retried.
import type { UpstreamErrorDetails } from "../adaptor.ts";

const typeByStatus: Record<number, string> = {
  400: "invalid_request_error",
  403: "permission_error",
  404: "not_found_error",
  408: "timeout_error",
  429: "rate_limit_error",
  500: "api_error",
  503: "overloaded_error",
};

export function parseBedrockError(status: number, body: string): UpstreamErrorDetails {
  let message = "";
  let name = "";
  try {
    const parsed = JSON.parse(body) as { message?: unknown; Message?: unknown; __type?: unknown };
    message = String(parsed.message ?? parsed.Message ?? "");
    // "__type" may be "com.amazon.coral.service#ThrottlingException".
    name = typeof parsed.__type === "string" ? (parsed.__type.split("#").pop() ?? "") : "";
  } catch {
    message = body.trim().slice(0, 500);
  }
  const type = typeByStatus[status] ?? (status >= 500 ? "api_error" : "invalid_request_error");
  return { message: message || `bad response status code ${status}`, type, code: name || status, param: null };
}
