// How a user's row appears in the audit trail: the password and access token only as changed,
// and the counters the gateway moves by itself left out.
export const userAuditRules = {
  secret: ["password", "access_token"],
  ignore: ["session_version", "used_quota", "request_count", "aff_count", "aff_quota", "aff_history_quota", "created_at", "setting"],
} as const;
