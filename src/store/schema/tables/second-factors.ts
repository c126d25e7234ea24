// Second factors (issue 28): a TOTP secret per user (RFC 6238), its one-time recovery codes
// (hashed), and passkeys (WebAuthn credentials, several per user, also usable alone).
import type { Kit } from "../kit.ts";

export const defineTotpSecrets = (k: Kit) =>
  k.table("totp_secrets", {
    user_id: k.int("user_id").primaryKey(),
    /** Base32 secret; never leaves the server after setup. */
    secret: k.varchar("secret", 64).notNull(),
    /** False between setup and the first confirmed code. */
    enabled: k.bool("enabled").notNull().default(false),
    /** The newest time step a code was accepted for: a code cannot be used twice. */
    last_step: k.bigint("last_step").notNull().default(0),
    created_at: k.bigint("created_at").notNull(),
    enabled_at: k.bigint("enabled_at"),
  });

export const defineRecoveryCodes = (k: Kit) =>
  k.table(
    "recovery_codes",
    {
      id: k.id(),
      user_id: k.int("user_id").notNull(),
      /** SHA-256 of the code (normalised: lower case, no dashes). */
      code_hash: k.varchar("code_hash", 64).notNull(),
      used_at: k.bigint("used_at"),
    },
    (table) => [k.index("recovery_codes_user_id_index").on(table.user_id, table.code_hash)],
  );

export const definePasskeys = (k: Kit) =>
  k.table(
    "passkeys",
    {
      id: k.id(),
      user_id: k.int("user_id").notNull(),
      /** Base64url credential id, as WebAuthn reports it. */
      credential_id: k.varchar("credential_id", 512).notNull(),
      /** Base64url COSE public key. */
      public_key: k.text("public_key").notNull(),
      counter: k.bigint("counter").notNull().default(0),
      /** Comma-separated transports the authenticator reported (usb, internal, hybrid...). */
      transports: k.varchar("transports", 128).notNull().default(""),
      /** The WebAuthn user handle (base64url), the same for every passkey of one user. */
      user_handle: k.varchar("user_handle", 128).notNull(),
      name: k.varchar("name", 64).notNull().default(""),
      backed_up: k.bool("backed_up").notNull().default(false),
      created_at: k.bigint("created_at").notNull(),
      last_used_at: k.bigint("last_used_at").notNull().default(0),
    },
    (table) => [
      k.uniqueIndex("passkeys_credential_id_unique").on(table.credential_id),
      k.index("passkeys_user_id_index").on(table.user_id),
    ],
  );
