// Every table, defined once against a dialect kit. Adding a table: one file in tables/, one line
// here, then `npm run db:generate` writes the migrations for both dialects.
import type { Kit } from "./kit.ts";
import { defineLogCaptures } from "./tables/captures.ts";
import { defineAuditLogs } from "./tables/audit.ts";
import { defineAbilities, defineChannels } from "./tables/channels.ts";
import { defineLogs } from "./tables/logs.ts";
import { defineQuotaData, defineTopUps } from "./tables/money.ts";
import { defineOptions } from "./tables/options.ts";
import { defineRedemptions } from "./tables/redemptions.ts";
import { definePasskeys, defineRecoveryCodes, defineTotpSecrets } from "./tables/second-factors.ts";
import { defineSessions } from "./tables/sessions.ts";
import { defineStoredResponseItems, defineStoredResponses } from "./tables/responses.ts";
import { defineMidjourneys, defineTasks } from "./tables/tasks.ts";
import { defineTokens } from "./tables/tokens.ts";
import { defineUsers } from "./tables/users.ts";
import { defineVerifications } from "./tables/verifications.ts";

export function defineSchema(k: Kit) {
  const users = defineUsers(k);
  const channels = defineChannels(k);
  const stored_responses = defineStoredResponses(k, users);
  const logs = defineLogs(k);
  return {
    users,
    tokens: defineTokens(k, users),
    channels,
    abilities: defineAbilities(k, channels),
    options: defineOptions(k),
    redemptions: defineRedemptions(k),
    logs,
    log_captures: defineLogCaptures(k, logs),
    midjourneys: defineMidjourneys(k),
    tasks: defineTasks(k),
    top_ups: defineTopUps(k),
    quota_data: defineQuotaData(k),
    verifications: defineVerifications(k),
    sessions: defineSessions(k),
    totp_secrets: defineTotpSecrets(k),
    recovery_codes: defineRecoveryCodes(k),
    passkeys: definePasskeys(k),
    stored_responses,
    stored_response_items: defineStoredResponseItems(k, stored_responses),
    audit_logs: defineAuditLogs(k),
  };
}

export type Tables = ReturnType<typeof defineSchema>;
