// Passkey rows (issue 28): several per account, each named, with when it was last used.
import { and, eq, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import { parseInput } from "../parse-input.ts";
import { z } from "zod";

export type PasskeyRow = (typeof t.passkeys)["$inferSelect"];

/** What a passkey list shows: never the key material. */
export type PasskeyView = { id: number; name: string; created_at: number; last_used_at: number; backed_up: boolean };

export const maxPasskeysPerUser = 20;

export const passkeyNameInput = z.object({
  name: z.string({ error: "请输入通行密钥名称" }).trim().min(1, "请输入通行密钥名称").max(64, "通行密钥名称不能超过 64 个字符"),
});

export const toPasskeyView = (row: PasskeyRow): PasskeyView => ({
  id: row.id,
  name: row.name,
  created_at: row.created_at,
  last_used_at: row.last_used_at,
  backed_up: row.backed_up,
});

export async function passkeysOfUser(userId: number): Promise<PasskeyRow[]> {
  return db.select().from(t.passkeys).where(eq(t.passkeys.user_id, userId)).orderBy(t.passkeys.id);
}

export async function passkeyCount(userId: number): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)` }).from(t.passkeys).where(eq(t.passkeys.user_id, userId));
  return Number(row?.count ?? 0);
}

export async function findPasskeyByCredentialId(credentialId: string): Promise<PasskeyRow | undefined> {
  const [row] = await db.select().from(t.passkeys).where(eq(t.passkeys.credential_id, credentialId)).limit(1);
  return row;
}

export async function insertPasskey(values: Omit<PasskeyRow, "id" | "created_at" | "last_used_at">): Promise<PasskeyRow> {
  const [row] = await db
    .insert(t.passkeys)
    .values({ ...values, created_at: nowSeconds(), last_used_at: 0 })
    .returning();
  return row!;
}

/** After a successful assertion: the authenticator's counter and the last-used time. */
export async function recordPasskeyUse(id: number, counter: number, backedUp: boolean): Promise<void> {
  await db.update(t.passkeys).set({ counter, backed_up: backedUp, last_used_at: nowSeconds() }).where(eq(t.passkeys.id, id));
}

export async function renamePasskey(userId: number, id: number, body: unknown): Promise<PasskeyView> {
  const { name } = parseInput(passkeyNameInput, body);
  const [row] = await db
    .update(t.passkeys)
    .set({ name })
    .where(and(eq(t.passkeys.user_id, userId), eq(t.passkeys.id, id)))
    .returning();
  if (!row) throw invalid("通行密钥不存在");
  return toPasskeyView(row);
}

export async function deletePasskey(userId: number, id: number): Promise<void> {
  const removed = await db
    .delete(t.passkeys)
    .where(and(eq(t.passkeys.user_id, userId), eq(t.passkeys.id, id)))
    .returning({ id: t.passkeys.id });
  if (removed.length === 0) throw invalid("通行密钥不存在");
}
