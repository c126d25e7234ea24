// One-time codes and links (email verification, password reset, bindings, OAuth states).
// Stored hashed with an expiry, consumed once, invalidated after too many wrong tries, and
// shared by every instance because they live in the store.
import { and, eq, gt, isNull, lt } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { randomAlphanumeric, sha256Hex } from "../users/random-codes.ts";

export type VerificationPurpose =
  | "email_verification"
  | "password_reset"
  | "email_bind"
  | "oauth_state"
  | "wechat_login"
  | "wechat_bind"
  | "login_2fa"
  | "webauthn";

const maxAttempts = 5;

/** Issues a new code for (purpose, subject), replacing any earlier one. Returns the plain code. */
export async function issueCode(
  purpose: VerificationPurpose,
  subject: string,
  options: { ttlSeconds: number; length?: number; code?: string; payload?: string },
): Promise<string> {
  const code = options.code ?? randomAlphanumeric(options.length ?? 6);
  const now = nowSeconds();
  await transact(function* (tx) {
    yield* run(tx.delete(t.verifications).where(and(eq(t.verifications.purpose, purpose), eq(t.verifications.subject, subject))));
    yield* run(
      tx.insert(t.verifications).values({
        purpose,
        subject,
        code_hash: sha256Hex(code),
        payload: options.payload ?? "",
        created_at: now,
        expires_at: now + options.ttlSeconds,
      }),
    );
  });
  return code;
}

/**
 * Checks and uses up a code for (purpose, subject). Returns the stored payload when it matched,
 * or undefined when the code is wrong, expired, already used or tried too often.
 */
export async function consumeCode(purpose: VerificationPurpose, subject: string, code: string): Promise<{ payload: string } | undefined> {
  const now = nowSeconds();
  const hash = sha256Hex(code.trim());
  return transact(function* (tx) {
    const [row] = yield* run(
      tx
        .select()
        .from(t.verifications)
        .where(
          and(
            eq(t.verifications.purpose, purpose),
            eq(t.verifications.subject, subject),
            isNull(t.verifications.used_at),
            gt(t.verifications.expires_at, now),
          ),
        )
        .limit(1),
    );
    if (!row || row.attempts >= maxAttempts) return undefined;
    if (row.code_hash !== hash) {
      yield* run(
        tx
          .update(t.verifications)
          .set({ attempts: row.attempts + 1 })
          .where(eq(t.verifications.id, row.id)),
      );
      return undefined;
    }
    // The conditional update makes two simultaneous uses of one code succeed at most once.
    const used = yield* run(
      tx
        .update(t.verifications)
        .set({ used_at: now })
        .where(and(eq(t.verifications.id, row.id), isNull(t.verifications.used_at)))
        .returning({ id: t.verifications.id }),
    );
    return used.length === 1 ? { payload: row.payload } : undefined;
  });
}

/** Uses up a code found by its value alone (OAuth states, WeChat codes): the subject is unknown. */
export async function consumeCodeByValue(
  purpose: VerificationPurpose,
  code: string,
): Promise<{ subject: string; payload: string } | undefined> {
  const now = nowSeconds();
  const hash = sha256Hex(code.trim());
  return transact(function* (tx) {
    const used = yield* run(
      tx
        .update(t.verifications)
        .set({ used_at: now })
        .where(
          and(
            eq(t.verifications.purpose, purpose),
            eq(t.verifications.code_hash, hash),
            isNull(t.verifications.used_at),
            gt(t.verifications.expires_at, now),
          ),
        )
        .returning({ subject: t.verifications.subject, payload: t.verifications.payload }),
    );
    return used[0];
  });
}

/** Removes expired codes; run by a background job. */
export async function deleteExpiredCodes(): Promise<void> {
  await db.delete(t.verifications).where(lt(t.verifications.expires_at, nowSeconds() - 86_400));
}
