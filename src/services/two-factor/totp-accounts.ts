// TOTP two-factor of an account (issue 28): set up (a new secret, shown as a QR code and as
// text), switched on by a first correct code (which hands out ten recovery codes), switched off
// with a current code or a recovery code, reset by root for someone who lost their device.
import type { AuditActor } from "../audit/audit-actor.ts";
import { recordAudit } from "../audit/record-audit.ts";
import { and, eq, lt } from "drizzle-orm";
import { nowMs, nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { db, t } from "../../store/client.ts";
import { announceChange } from "../change-notices.ts";
import { optionText } from "../options/options.ts";
import { parseInput } from "../parse-input.ts";
import type { UserRow } from "../users/user-view.ts";
import { deleteRecoveryCodes, replaceRecoveryCodes, unusedRecoveryCodes, consumeRecoveryCode } from "./recovery-codes.ts";
import { acceptedTotpStep, newTotpSecret, otpauthUrl } from "./totp-codes.ts";
import { mustEnrolTwoFactor } from "./two-factor-state.ts";
import { z } from "zod";

export const wrongTwoFactorCode = "验证码错误或已被使用";

export const totpCodeInput = z.object({
  code: z.string({ error: "请输入验证码" }).trim().min(1, "请输入验证码").max(16, wrongTwoFactorCode),
});

/** A current code or, instead, one of the recovery codes. */
export const secondFactorInput = z
  .object({
    code: z.string().trim().max(16, wrongTwoFactorCode).optional(),
    recovery_code: z.string().trim().max(32, wrongTwoFactorCode).optional(),
  })
  .refine((input) => Boolean(input.code) || Boolean(input.recovery_code), { message: "请输入验证码或恢复码" });

export type TwoFactorStatus = { enabled: boolean; pending_setup: boolean; recovery_codes_left: number; required: boolean };

async function secretRow(userId: number) {
  const [row] = await db.select().from(t.totp_secrets).where(eq(t.totp_secrets.user_id, userId)).limit(1);
  return row;
}

export async function twoFactorStatus(user: UserRow): Promise<TwoFactorStatus> {
  const row = await secretRow(user.id);
  const enabled = row?.enabled === true;
  return {
    enabled,
    pending_setup: row !== undefined && !enabled,
    recovery_codes_left: enabled ? await unusedRecoveryCodes(user.id) : 0,
    required: await mustEnrolTwoFactor(user),
  };
}

/** A new secret waiting for its first code; replaces an unconfirmed one. */
export async function setupTotp(user: UserRow): Promise<{ secret: string; otpauth_url: string }> {
  const existing = await secretRow(user.id);
  if (existing?.enabled) throw invalid("两步验证已启用，请先关闭");
  const secret = newTotpSecret();
  await db.delete(t.totp_secrets).where(and(eq(t.totp_secrets.user_id, user.id), eq(t.totp_secrets.enabled, false)));
  await db.insert(t.totp_secrets).values({ user_id: user.id, secret, enabled: false, last_step: 0, created_at: nowSeconds() });
  return { secret, otpauth_url: otpauthUrl(secret, user.username, optionText("SystemName") || "Switchyard") };
}

/** Switches TOTP on with a first correct code; returns the recovery codes, shown this once. */
export async function enableTotp(user: UserRow, body: unknown): Promise<{ recovery_codes: string[] }> {
  const { code } = parseInput(totpCodeInput, body);
  const row = await secretRow(user.id);
  if (!row) throw invalid("请先获取两步验证密钥");
  if (row.enabled) throw invalid("两步验证已启用，请先关闭");
  const step = acceptedTotpStep(row.secret, code, nowMs(), row.last_step);
  if (step === undefined) throw invalid(wrongTwoFactorCode);
  const [switched] = await db
    .update(t.totp_secrets)
    .set({ enabled: true, last_step: step, enabled_at: nowSeconds() })
    .where(and(eq(t.totp_secrets.user_id, user.id), eq(t.totp_secrets.enabled, false), eq(t.totp_secrets.secret, row.secret)))
    .returning({ user_id: t.totp_secrets.user_id });
  if (!switched) throw invalid(wrongTwoFactorCode);
  const recoveryCodes = await replaceRecoveryCodes(user.id);
  await announceChange("users", user.id);
  return { recovery_codes: recoveryCodes };
}

/**
 * Checks a current TOTP code of a user with two-factor on and uses its time step up (one
 * conditional update: the same code cannot pass twice, even in two requests at once).
 */
async function consumeTotpCode(userId: number, code: string): Promise<boolean> {
  const row = await secretRow(userId);
  if (!row?.enabled) return false;
  const step = acceptedTotpStep(row.secret, code, nowMs(), row.last_step);
  if (step === undefined) return false;
  const used = await db
    .update(t.totp_secrets)
    .set({ last_step: step })
    .where(and(eq(t.totp_secrets.user_id, userId), eq(t.totp_secrets.enabled, true), lt(t.totp_secrets.last_step, step)))
    .returning({ user_id: t.totp_secrets.user_id });
  return used.length === 1;
}

/** A second factor typed by a person: a TOTP code or a recovery code. Names the one that passed. */
export async function checkTypedSecondFactor(userId: number, body: unknown): Promise<"totp" | "recovery_code" | undefined> {
  const input = parseInput(secondFactorInput, body);
  if (input.code) return (await consumeTotpCode(userId, input.code)) ? "totp" : undefined;
  return (await consumeRecoveryCode(userId, input.recovery_code ?? "")) ? "recovery_code" : undefined;
}

async function removeTotp(userId: number): Promise<void> {
  await db.delete(t.totp_secrets).where(eq(t.totp_secrets.user_id, userId));
  await deleteRecoveryCodes(userId);
  await announceChange("users", userId);
}

/** Switches TOTP off; needs a current code or a recovery code. False when the code was wrong. */
export async function disableTotp(user: UserRow, body: unknown): Promise<boolean> {
  const row = await secretRow(user.id);
  if (!row?.enabled) throw invalid("两步验证未启用");
  if (!(await checkTypedSecondFactor(user.id, body))) return false;
  await removeTotp(user.id);
  return true;
}

/** Root's reset for a user who lost their authenticator: TOTP and recovery codes are gone. */
/** An admin's reset of someone's two-factor; the audit entry names the user. */
export async function resetTotp(userId: number, actor: AuditActor): Promise<void> {
  await removeTotp(userId);
  await recordAudit(actor, { action: "user.reset_2fa", targetType: "user", targetId: userId });
}

export async function totpEnabled(userId: number): Promise<boolean> {
  return (await secretRow(userId))?.enabled === true;
}
