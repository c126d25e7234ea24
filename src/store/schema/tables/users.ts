// Users: accounts, their balance (quota), invite data and per-user settings (new-api's columns).
import { sql } from "drizzle-orm";
import type { Kit } from "../kit.ts";

export const defineUsers = (k: Kit) =>
  k.table(
    "users",
    {
      id: k.id(),
      username: k.varchar("username", 64).notNull(),
      /** Password hash (Bun.password); never leaves the server. */
      password: k.text("password").notNull(),
      display_name: k.varchar("display_name", 64).notNull().default(""),
      role: k.int("role").notNull().default(1),
      /** 1 enabled, 2 banned, 3 non-enableable. */
      status: k.int("status").notNull().default(1),
      email: k.varchar("email", 128).notNull().default(""),
      github_id: k.varchar("github_id", 64).notNull().default(""),
      wechat_id: k.varchar("wechat_id", 64).notNull().default(""),
      telegram_id: k.varchar("telegram_id", 64).notNull().default(""),
      linux_do_id: k.varchar("linux_do_id", 64).notNull().default(""),
      /** The `sub` of the site's OpenID Connect provider (issue 28); accounts are matched by it alone. */
      oidc_id: k.varchar("oidc_id", 255).notNull().default(""),
      /** SHA-256 of the system access token; the token itself is shown once when generated. */
      access_token: k.varchar("access_token", 64),
      quota: k.bigint("quota").notNull().default(0),
      used_quota: k.bigint("used_quota").notNull().default(0),
      request_count: k.bigint("request_count").notNull().default(0),
      group: k.varchar("group", 64).notNull().default("default"),
      aff_code: k.varchar("aff_code", 32),
      aff_count: k.int("aff_count").notNull().default(0),
      aff_quota: k.bigint("aff_quota").notNull().default(0),
      aff_history_quota: k.bigint("aff_history_quota").notNull().default(0),
      inviter_id: k.int("inviter_id").notNull().default(0),
      /** JSON text: notification preferences (docs/COMPATIBILITY.md, Notifications). */
      setting: k.text("setting").notNull().default(""),
      /** Bumped on password change, ban, role change and logout-everywhere: old sessions die. */
      session_version: k.int("session_version").notNull().default(0),
      /** Unix seconds until which the request inspector keeps all this user's calls; 0 = off. */
      capture_until: k.bigint("capture_until").notNull().default(0),
      created_at: k.bigint("created_at").notNull().default(0),
      /** Unix seconds of a soft delete; null while the account exists. */
      deleted_at: k.bigint("deleted_at"),
    },
    (table) => [
      k.uniqueIndex("users_username_unique").on(table.username),
      k.uniqueIndex("users_access_token_unique").on(table.access_token),
      k.uniqueIndex("users_aff_code_unique").on(table.aff_code),
      // An address or a social account belongs to one user at most (deleted users keep theirs,
      // as new-api does); empty means "none", so only non-empty values are unique.
      k.uniqueIndex("users_email_unique").on(table.email).where(sql`email <> ''`),
      k.uniqueIndex("users_github_id_unique").on(table.github_id).where(sql`github_id <> ''`),
      k.uniqueIndex("users_wechat_id_unique").on(table.wechat_id).where(sql`wechat_id <> ''`),
      k.uniqueIndex("users_telegram_id_unique").on(table.telegram_id).where(sql`telegram_id <> ''`),
      k.uniqueIndex("users_linux_do_id_unique").on(table.linux_do_id).where(sql`linux_do_id <> ''`),
      k.uniqueIndex("users_oidc_id_unique").on(table.oidc_id).where(sql`oidc_id <> ''`),
      k.index("users_group_index").on(table.group),
      k.index("users_deleted_at_index").on(table.deleted_at),
    ],
  );
