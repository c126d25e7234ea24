// Signed-in sessions, one row per sign-in (issue 28): the cookie carries a random session id,
// the store keeps its SHA-256 with what the personal settings list (device, address, method,
// sign-in and last-seen times). A session without its row is over, on every instance.
import type { Kit } from "../kit.ts";

export const defineSessions = (k: Kit) =>
  k.table(
    "sessions",
    {
      /** Public id: what GET /api/user/sessions lists and DELETE /api/user/sessions/{id} ends. */
      id: k.id(),
      /** SHA-256 of the session id the cookie carries. */
      token_hash: k.varchar("token_hash", 64).notNull(),
      user_id: k.int("user_id").notNull(),
      /** The user's session_version when it started: bumping it (ban, role change...) ends it. */
      user_version: k.int("user_version").notNull().default(0),
      /** How the user signed in: password, github, oidc, passkey..., with "+totp" etc. for a second factor. */
      method: k.varchar("method", 48).notNull().default(""),
      address: k.varchar("address", 64).notNull().default(""),
      user_agent: k.varchar("user_agent", 512).notNull().default(""),
      created_at: k.bigint("created_at").notNull(),
      last_seen_at: k.bigint("last_seen_at").notNull(),
      expires_at: k.bigint("expires_at").notNull(),
    },
    (table) => [
      k.uniqueIndex("sessions_token_hash_unique").on(table.token_hash),
      k.index("sessions_user_id_index").on(table.user_id),
      k.index("sessions_expires_at_index").on(table.expires_at),
    ],
  );
