// The state between the two steps of a sign-in with two-factor (issue 28). The first step
// (password, social account, OIDC) proved who the person says they are but grants nothing: it
// leaves a random token, in an HttpOnly cookie of its own, that only the second step accepts.
// Kept hashed in the store (verifications, purpose login_2fa) for five minutes, at most five
// wrong codes, used up by the one successful second step. A new first step replaces the old one.
import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { randomAlphanumeric, sha256Hex } from "../users/random-codes.ts";
import { issueCode } from "../verifications/verification-codes.ts";

export const pendingLoginCookie = "login_2fa";
export const pendingLoginSeconds = 300;
const maxWrongCodes = 5;

export type PendingLogin = { rowId: number; userId: number; method: string; sessionVersion: number };

type Payload = { userId?: unknown; method?: unknown; version?: unknown };

export async function startPendingLogin(user: { id: number; session_version: number }, method: string): Promise<string> {
  const token = randomAlphanumeric(40);
  await issueCode("login_2fa", `user-${user.id}`, {
    code: token,
    ttlSeconds: pendingLoginSeconds,
    payload: JSON.stringify({ userId: user.id, method, version: user.session_version }),
  });
  return token;
}

/** The pending sign-in of a cookie: unexpired, unused and not tried too often. */
export async function findPendingLogin(token: string | undefined): Promise<PendingLogin | undefined> {
  if (token?.length !== 40) return undefined;
  const [row] = await db
    .select()
    .from(t.verifications)
    .where(
      and(
        eq(t.verifications.purpose, "login_2fa"),
        eq(t.verifications.code_hash, sha256Hex(token)),
        isNull(t.verifications.used_at),
        gt(t.verifications.expires_at, nowSeconds()),
        lt(t.verifications.attempts, maxWrongCodes),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  const payload = JSON.parse(row.payload || "{}") as Payload;
  if (typeof payload.userId !== "number" || typeof payload.method !== "string") return undefined;
  return { rowId: row.id, userId: payload.userId, method: payload.method, sessionVersion: Number(payload.version) || 0 };
}

/** A wrong second factor: counted, and after five the pending sign-in is over. */
export async function countWrongSecondFactor(pending: PendingLogin): Promise<void> {
  await db
    .update(t.verifications)
    .set({ attempts: sql`${t.verifications.attempts} + 1` })
    .where(eq(t.verifications.id, pending.rowId));
}

/** Uses the pending sign-in up; false when another request already did. */
export async function consumePendingLogin(pending: PendingLogin): Promise<boolean> {
  const used = await db
    .update(t.verifications)
    .set({ used_at: nowSeconds() })
    .where(and(eq(t.verifications.id, pending.rowId), isNull(t.verifications.used_at)))
    .returning({ id: t.verifications.id });
  return used.length === 1;
}
