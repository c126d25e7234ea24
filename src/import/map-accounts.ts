// Users and tokens. Password hashes are copied as they are: new-api and one-api store bcrypt,
// which Bun.password verifies beside our own argon2id hashes, so every old password signs in.
// Token keys are copied as they are too (48 alphanumerics without "sk-", as the relay looks them
// up), so every client keeps its key. System access tokens are stored plain by both; we keep
// only their SHA-256, as for our own, so old management scripts keep working as well.
import { createHash } from "node:crypto";
import {
  noteUnreadColumns,
  shiftedUser,
  type ImportContext,
  type TargetRow,
} from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { boolOf, clip, deletedAtOf, intOf, textOf } from "./source-values.ts";

const userColumns = [
  "id", "username", "password", "display_name", "role", "status", "email", "github_id", "wechat_id", "telegram_id",
  "linux_do_id", "access_token", "quota", "used_quota", "request_count", "group", "aff_code", "aff_count", "aff_quota",
  "aff_history", "aff_history_quota", "inviter_id", "setting", "created_at", "deleted_at",
];
const tokenColumns = [
  "id", "user_id", "key", "status", "name", "created_time", "accessed_time", "expired_time", "remain_quota",
  "unlimited_quota", "used_quota", "model_limits_enabled", "model_limits", "allow_ips", "group", "deleted_at",
  "models", "subnet",
];
/** Sign-ins Switchyard does not offer; an account bound to one keeps its password and other bindings. */
const unsupportedBindings = ["discord_id", "oidc_id", "lark_id"];

export function noteAccountColumns(context: ImportContext): void {
  noteUnreadColumns(context, "users", [...userColumns, ...unsupportedBindings, "verification_code"]);
  noteUnreadColumns(context, "tokens", tokenColumns);
}

/** A unique value: kept when free (and then taken), else cleared with a note. */
function claim(context: ImportContext, taken: Set<string>, value: string, what: string, username: string): string {
  if (!value) return "";
  if (taken.has(value)) {
    context.report.skip("users", `${what} already belongs to another account: cleared`, username);
    return "";
  }
  taken.add(value);
  return value;
}

export function mapUser(context: ImportContext, row: SourceRow): TargetRow<"users"> | null {
  const sourceId = intOf("users", row, "id");
  const username = textOf(row, "username").trim();
  if (!username || username.length > 64) {
    context.report.skip("users", "without a usable username (empty or over 64 characters)", String(sourceId));
    context.skippedUsers.add(sourceId);
    return null;
  }
  if (context.taken.usernames.has(username)) {
    context.report.skip("users", "whose username the target already has (left out with their tokens, logs and tasks)", username);
    context.skippedUsers.add(sourceId);
    return null;
  }
  context.taken.usernames.add(username);
  for (const binding of unsupportedBindings) {
    if (textOf(row, binding)) context.report.skip("users", `bound to ${binding.replace(/_id$/, "")}, a sign-in Switchyard does not offer (binding dropped)`, username);
  }
  const plainAccessToken = textOf(row, "access_token").trim();
  const accessToken = plainAccessToken ? createHash("sha256").update(plainAccessToken).digest("hex") : "";
  const affCode = textOf(row, "aff_code").trim();
  context.importedUsers.add(sourceId);
  return {
    id: shiftedUser(context, sourceId),
    username,
    password: textOf(row, "password"),
    display_name: clip(textOf(row, "display_name"), 64),
    role: intOf("users", row, "role", 1),
    status: intOf("users", row, "status", 1),
    email: clip(claim(context, context.taken.emails, textOf(row, "email").trim().toLowerCase(), "email", username), 128),
    github_id: claim(context, context.taken.socialIds.github_id, textOf(row, "github_id").trim(), "GitHub id", username),
    wechat_id: claim(context, context.taken.socialIds.wechat_id, textOf(row, "wechat_id").trim(), "WeChat id", username),
    telegram_id: claim(context, context.taken.socialIds.telegram_id, textOf(row, "telegram_id").trim(), "Telegram id", username),
    linux_do_id: claim(context, context.taken.socialIds.linux_do_id, textOf(row, "linux_do_id").trim(), "LinuxDO id", username),
    access_token: claim(context, context.taken.accessTokens, accessToken, "system access token", username) || null,
    quota: intOf("users", row, "quota"),
    used_quota: intOf("users", row, "used_quota"),
    request_count: intOf("users", row, "request_count"),
    group: clip(textOf(row, "group").trim() || "default", 64),
    aff_code: claim(context, context.taken.affCodes, affCode.length <= 32 ? affCode : "", "invite code", username) || null,
    aff_count: intOf("users", row, "aff_count"),
    aff_quota: intOf("users", row, "aff_quota"),
    // new-api's model names the field aff_history_quota but stores it in a column named aff_history.
    aff_history_quota: intOf("users", row, context.schema.has("users", "aff_history") ? "aff_history" : "aff_history_quota"),
    inviter_id: shiftedUser(context, intOf("users", row, "inviter_id")),
    setting: textOf(row, "setting"),
    session_version: 0,
    created_at: intOf("users", row, "created_at"),
    deleted_at: deletedAtOf("users", row),
  };
}

const tokenKeyShape = /^[A-Za-z0-9]{1,64}$/;

/** new-api's "auto" group (try the owner's groups in turn) does not exist here: such a token uses its owner's group. */
function tokenGroupOf(context: ImportContext, row: SourceRow, example: string): string {
  const group = clip(textOf(row, "group").trim(), 64);
  if (group !== "auto") return group;
  context.report.skip("tokens", "in new-api's auto group, which Switchyard does not have: they use their owner's group", example);
  return "";
}

export function mapToken(context: ImportContext, row: SourceRow): TargetRow<"tokens"> | null {
  const sourceId = intOf("tokens", row, "id");
  const userId = intOf("tokens", row, "user_id");
  const key = textOf(row, "key").trim().replace(/^sk-/, "");
  const name = textOf(row, "name");
  if (context.skippedUsers.has(userId)) {
    context.report.skip("tokens", "of users left out", name || String(sourceId));
    return null;
  }
  if (!context.importedUsers.has(userId)) {
    context.report.skip("tokens", "whose owner does not exist in the source", name || String(sourceId));
    return null;
  }
  if (!tokenKeyShape.test(key)) {
    // The relay reads "sk-<key>-<channel>" as a pinned channel, so a key must be alphanumeric.
    context.report.skip("tokens", "whose key is not 1-64 letters and digits", name || String(sourceId));
    return null;
  }
  if (context.taken.tokenKeys.has(key)) {
    context.report.skip("tokens", "whose key the target already has", name || String(sourceId));
    return null;
  }
  context.taken.tokenKeys.add(key);
  context.importedTokens.add(sourceId);
  const oneApiModels = context.schema.product === "one-api" ? textOf(row, "models").trim() : "";
  return {
    id: sourceId + context.shift.tokens,
    user_id: shiftedUser(context, userId),
    key,
    status: intOf("tokens", row, "status", 1),
    name: clip(name, 64),
    created_time: intOf("tokens", row, "created_time"),
    accessed_time: intOf("tokens", row, "accessed_time"),
    expired_time: intOf("tokens", row, "expired_time", -1),
    remain_quota: intOf("tokens", row, "remain_quota"),
    unlimited_quota: boolOf(row, "unlimited_quota"),
    used_quota: intOf("tokens", row, "used_quota"),
    // one-api keeps the allowed models in `models` (empty: all) and addresses in a comma list `subnet`.
    model_limits_enabled: context.schema.product === "one-api" ? oneApiModels !== "" : boolOf(row, "model_limits_enabled"),
    model_limits: context.schema.product === "one-api" ? oneApiModels : textOf(row, "model_limits"),
    allow_ips: context.schema.product === "one-api" ? textOf(row, "subnet").split(",").map((part) => part.trim()).filter(Boolean).join("\n") : textOf(row, "allow_ips"),
    group: tokenGroupOf(context, row, name || String(sourceId)),
    deleted_at: context.schema.has("tokens", "deleted_at") ? deletedAtOf("tokens", row) : null,
  };
}
