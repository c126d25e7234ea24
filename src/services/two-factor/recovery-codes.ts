// Ten one-time recovery codes per TOTP enrolment, shown once and kept as SHA-256 hashes. A code
// is used up by one conditional update, so two sign-ins racing with the same code cannot both pass.
import { and, eq, isNull } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";
import { sha256Hex } from "../users/random-codes.ts";

const recoveryCodeCount = 10;
// No 0/o, 1/l/i: codes are read off paper and typed.
const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";

/** "abcde-fghjk": 10 characters of a 31-letter alphabet (about 49 bits). */
function newRecoveryCode(): string {
  const limit = 256 - (256 % alphabet.length);
  let code = "";
  while (code.length < 10) {
    for (const byte of crypto.getRandomValues(new Uint8Array(20))) {
      if (byte < limit && code.length < 10) code += alphabet[byte % alphabet.length];
    }
  }
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

const normalised = (code: string) => code.trim().toLowerCase().replace(/[\s-]/g, "");
const hashOf = (code: string) => sha256Hex(`recovery:${normalised(code)}`);

/** New codes for a user, replacing any earlier ones; the plain codes are returned once. */
export async function replaceRecoveryCodes(userId: number): Promise<string[]> {
  const codes = Array.from({ length: recoveryCodeCount }, newRecoveryCode);
  await db.delete(t.recovery_codes).where(eq(t.recovery_codes.user_id, userId));
  await db.insert(t.recovery_codes).values(codes.map((code) => ({ user_id: userId, code_hash: hashOf(code) })));
  return codes;
}

/** Uses one code up; false when it is wrong or was used before. */
export async function consumeRecoveryCode(userId: number, code: string): Promise<boolean> {
  if (normalised(code).length !== 10) return false;
  const used = await db
    .update(t.recovery_codes)
    .set({ used_at: nowSeconds() })
    .where(and(eq(t.recovery_codes.user_id, userId), eq(t.recovery_codes.code_hash, hashOf(code)), isNull(t.recovery_codes.used_at)))
    .returning({ id: t.recovery_codes.id });
  return used.length === 1;
}

export async function unusedRecoveryCodes(userId: number): Promise<number> {
  const rows = await db
    .select({ id: t.recovery_codes.id })
    .from(t.recovery_codes)
    .where(and(eq(t.recovery_codes.user_id, userId), isNull(t.recovery_codes.used_at)));
  return rows.length;
}

export async function deleteRecoveryCodes(userId: number): Promise<void> {
  await db.delete(t.recovery_codes).where(eq(t.recovery_codes.user_id, userId));
}
