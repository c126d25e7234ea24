// Users and tokens. Password hashes are copied as they are: new-api and one-api store bcrypt,
// which Bun.password verifies beside our own argon2id hashes, so every old password signs in.
// Token keys are copied as they are too (48 alphanumerics without "sk-", as the relay looks them
// up), so every client keeps its key. System access tokens are stored plain by both; we keep
// only their SHA-256, as for our own, so old management scripts keep working as well.
//
// Privileges are not taken on trust: a role outside new-api's set (guest 0, common 1, admin 10,
// root 100) or a status outside Switchyard's leaves the user out; a store never gets a second
// root (a root of the source becomes --root-role when the store has one, or when one was imported
// already); administrators are named in the summary. On --merge a username that differs from one
// of the store's only by case is left out too: it would pass for that account.
import { createHash } from "node:crypto";
import { Role, UserStatus } from "../services/users/roles.ts";
import { noteUnreadColumns, shiftedUser, type ImportContext, type TargetRow } from "./import-context.ts";
import type { SourceRow } from "./source-database.ts";
import { boolOf, clip, deletedAtOf, intOf, textOf } from "./source-values.ts";

const userColumns = [
  "id",
  "username",
  "password",
  "display_name",
  "role",
  "status",
  "email",
  "github_id",
  "wechat_id",
  "telegram_id",
  "linux_do_id",
  "oidc_id",
  "access_token",
  "quota",
  "used_quota",
  "request_count",
  "group",
  "aff_code",
  "aff_count",
  "aff_quota",
  "aff_history",
  "aff_history_quota",
  "inviter_id",
  "setting",
  "created_at",
  "deleted_at",
];
const tokenColumns = [
  "id",
  "user_id",
  "key",
  "status",
  "name",
  "created_time",
  "accessed_time",
  "expired_time",
  "remain_quota",
  "unlimited_quota",
  "used_quota",
  "model_limits_enabled",
  "model_limits",
  "allow_ips",
  "group",
  "deleted_at",
  "models",
  "subnet",
];
/** Sign-ins Switchyard does not offer; an account bound to one keeps its password and other bindings. */
const unsupportedBindings = ["discord_id", "lark_id"];

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

const knownRoles = new Set<number>(Object.values(Role));
const knownStatuses = new Set<number>(Object.values(UserStatus));
const roleNames: Record<number, string> = { [Role.common]: "common users", [Role.admin]: "administrators" };

/** The role the account gets here, or null when the source's role is not one there is. */
function roleOf(context: ImportContext, row: SourceRow, username: string): number | null {
  const role = intOf("users", row, "role", Role.common);
  if (!knownRoles.has(role)) {
    context.report.skip("users", "whose role is not one of new-api's (0, 1, 10, 100): left out", `${username} (${role})`);
    return null;
  }
  if (role !== Role.root) return role;
  // The first live root of the source is the store's root when it has none; a deleted one never.
  if (!context.rootTaken && deletedAtOf("users", row) === null) {
    context.rootTaken = true;
    return role;
  }
  context.report.skip("users", `who were root in the source, made ${roleNames[context.rootRole]} (a store has one root)`, username);
  return context.rootRole;
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
  if (context.taken.targetUsernamesFolded.has(username.toLowerCase())) {
    context.report.skip("users", "whose username differs from one of the target's only by case (left out: it would pass for it)", username);
    context.skippedUsers.add(sourceId);
    return null;
  }
  const status = intOf("users", row, "status", UserStatus.enabled);
  if (!knownStatuses.has(status)) {
    context.report.skip("users", "whose status is not one Switchyard has (1, 2, 3): left out", `${username} (${status})`);
    context.skippedUsers.add(sourceId);
    return null;
  }
  const role = roleOf(context, row, username);
  if (role === null) {
    context.skippedUsers.add(sourceId);
    return null;
  }
  if (role === Role.admin) {
    const how = textOf(row, "password") ? "" : " without a password: signs in only through a bound account";
    context.report.skip("users", `imported as administrators${how} (review them)`, username);
  }
  context.taken.usernames.add(username);
  for (const binding of unsupportedBindings) {
    if (textOf(row, binding))
      context.report.skip(
        "users",
        `bound to ${binding.replace(/_id$/, "")}, a sign-in Switchyard does not offer (binding dropped)`,
        username,
      );
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
    role,
    status,
    email: clip(claim(context, context.taken.emails, textOf(row, "email").trim().toLowerCase(), "email", username), 128),
    github_id: claim(context, context.taken.socialIds.github_id, textOf(row, "github_id").trim(), "GitHub id", username),
    wechat_id: claim(context, context.taken.socialIds.wechat_id, textOf(row, "wechat_id").trim(), "WeChat id", username),
    telegram_id: claim(context, context.taken.socialIds.telegram_id, textOf(row, "telegram_id").trim(), "Telegram id", username),
    linux_do_id: claim(context, context.taken.socialIds.linux_do_id, textOf(row, "linux_do_id").trim(), "LinuxDO id", username),
    // new-api keys its OIDC bindings by the provider's sub, as Switchyard does.
    oidc_id: clip(claim(context, context.taken.socialIds.oidc_id, textOf(row, "oidc_id").trim(), "OIDC id", username), 255),
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
    allow_ips:
      context.schema.product === "one-api"
        ? textOf(row, "subnet")
            .split(",")
            .map((part) => part.trim())
            .filter(Boolean)
            .join("\n")
        : textOf(row, "allow_ips"),
    group: tokenGroupOf(context, row, name || String(sourceId)),
    deleted_at: context.schema.has("tokens", "deleted_at") ? deletedAtOf("tokens", row) : null,
  };
}
