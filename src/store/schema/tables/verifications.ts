// Short-lived secrets sent to a person or a browser: email codes, reset links, WeChat codes,
// OAuth states. Kept in the store (hashed) so they survive restarts and work on every instance.
import type { Kit } from "../kit.ts";

export const defineVerifications = (k: Kit) =>
  k.table(
    "verifications",
    {
      id: k.id(),
      /** email_verification, password_reset, email_bind, oauth_state, wechat... */
      purpose: k.varchar("purpose", 32).notNull(),
      /** Who or what it is for: an email address, a session, a user id. */
      subject: k.varchar("subject", 255).notNull(),
      /** SHA-256 of the code. */
      code_hash: k.varchar("code_hash", 64).notNull(),
      /** Free JSON text the flow needs back (e.g. the invite code of an OAuth state). */
      payload: k.text("payload").notNull().default(""),
      attempts: k.int("attempts").notNull().default(0),
      created_at: k.bigint("created_at").notNull(),
      expires_at: k.bigint("expires_at").notNull(),
      used_at: k.bigint("used_at"),
    },
    (table) => [
      k.index("verifications_lookup_index").on(table.purpose, table.subject),
      k.index("verifications_code_index").on(table.purpose, table.code_hash),
      k.index("verifications_expires_at_index").on(table.expires_at),
    ],
  );
