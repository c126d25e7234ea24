// What of a user row may leave the server. Password hashes and access-token hashes never do.
import type { Tables } from "../../store/schema/define-schema.ts";

export type UserRow = Tables["users"]["$inferSelect"];

export type UserView = Omit<UserRow, "password" | "access_token" | "session_version" | "deleted_at"> & {
  DeletedAt: number | null;
};

export function toUserView(user: UserRow): UserView {
  const { password: _password, access_token: _accessToken, session_version: _version, deleted_at, ...rest } = user;
  return { ...rest, DeletedAt: deleted_at };
}

/** The small record returned by login and kept by the console (it sends the id back as New-Api-User). */
export function toSessionUser(user: UserRow) {
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}

/**
 * A user as an admin sees it: like toUserView, and the notification webhook secret blanked
 * (only its owner reads it back).
 */
export function toAdminUserView(user: UserRow): UserView {
  const view = toUserView(user);
  if (!view.setting) return view;
  try {
    const setting = JSON.parse(view.setting) as Record<string, unknown>;
    if (setting.webhook_secret) setting.webhook_secret = "";
    return { ...view, setting: JSON.stringify(setting) };
  } catch {
    return { ...view, setting: "" };
  }
}
