// Zhipu's business error codes (docs.bigmodel.cn "错误码"), shared by the v3 and v4 APIs, with
// the statuses and types the relay's rules need: 1000-1004 authentication (401, the channel is
// disabled); an account in arrears (1113, sent with 429) or locked (1110-1112, 1121) disables it
// too; 1302-1305 are rate limits (429, retried); 1301 is a content refusal; other 12xx are the
// request's fault (400, not retried).
import type { UpstreamErrorDetails } from "../adaptor.ts";

function zhipuVerdict(code: number): { status: number; type: string } {
  if (code >= 1000 && code <= 1004) return { status: 401, type: "authentication_error" };
  if (code === 1113) return { status: 429, type: "insufficient_quota" };
  if ((code >= 1110 && code <= 1112) || code === 1121) return { status: 403, type: "permission_error" };
  if (code === 1120) return { status: 503, type: "upstream_error" };
  if (code === 1211 || code === 1222) return { status: 404, type: "invalid_request_error" };
  if (code === 1220 || code === 1221) return { status: 403, type: "invalid_request_error" };
  if (code === 1234 || code === 1230) return { status: 500, type: "upstream_error" };
  if (code >= 1200 && code < 1300) return { status: 400, type: "invalid_request_error" };
  if (code === 1301 || code === 1300) return { status: 400, type: "content_filter" };
  if (code >= 1302 && code <= 1305) return { status: 429, type: "rate_limit_error" };
  if (code >= 1306 && code < 1400) return { status: 429, type: "rate_limit_error" };
  return { status: 500, type: "upstream_error" };
}

/** Details for a numeric Zhipu code and its message. */
export function zhipuError(code: number, message: string): UpstreamErrorDetails {
  const { status, type } = zhipuVerdict(code);
  return { message: message || `code ${code}`, type, code: String(code), param: null, status };
}
