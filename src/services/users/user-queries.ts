// Reading users from the store.
import { and, eq, isNull, or } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import type { UserRow } from "./user-view.ts";

export async function findUserById(id: number): Promise<UserRow | undefined> {
  const [user] = await db.select().from(t.users).where(eq(t.users.id, id)).limit(1);
  return user;
}

/** A live (not deleted) user by id. */
export async function findLiveUserById(id: number): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(t.users)
    .where(and(eq(t.users.id, id), isNull(t.users.deleted_at)))
    .limit(1);
  return user;
}

/** Login accepts a username or an email address (addresses are kept in lower case). */
export async function findLiveUserByLogin(identifier: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(t.users)
    .where(
      and(
        isNull(t.users.deleted_at),
        identifier.includes("@")
          ? or(eq(t.users.username, identifier), eq(t.users.email, identifier.trim().toLowerCase()))
          : eq(t.users.username, identifier),
      ),
    )
    .limit(1);
  return user;
}

export async function findLiveUserByEmail(email: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(t.users)
    .where(and(eq(t.users.email, email), isNull(t.users.deleted_at)))
    .limit(1);
  return user;
}

/** Addresses stay taken after an account is deleted, like usernames. */
export async function emailTaken(email: string): Promise<boolean> {
  const [row] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.email, email)).limit(1);
  return row !== undefined;
}

export type SocialColumn = "github_id" | "wechat_id" | "telegram_id" | "linux_do_id" | "oidc_id";

/** The user (deleted ones included) a social account is bound to. */
export async function findUserBySocialId(column: SocialColumn, value: string): Promise<UserRow | undefined> {
  if (value === "") return undefined;
  const [user] = await db.select().from(t.users).where(eq(t.users[column], value)).limit(1);
  return user;
}

export async function findLiveUserByAccessTokenHash(hash: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(t.users)
    .where(and(eq(t.users.access_token, hash), isNull(t.users.deleted_at)))
    .limit(1);
  return user;
}

/** Usernames stay taken after an account is deleted (new-api behaviour: no impersonation). */
export async function usernameTaken(username: string): Promise<boolean> {
  const [row] = await db.select({ id: t.users.id }).from(t.users).where(eq(t.users.username, username)).limit(1);
  return row !== undefined;
}

export async function findUserByAffCode(code: string): Promise<UserRow | undefined> {
  const [user] = await db
    .select()
    .from(t.users)
    .where(and(eq(t.users.aff_code, code), isNull(t.users.deleted_at)))
    .limit(1);
  return user;
}
