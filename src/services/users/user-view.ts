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

/** The small record returned by login and kept by the console (spec §4 Session). */
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
