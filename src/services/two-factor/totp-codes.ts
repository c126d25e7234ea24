// TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, one step of drift either way) through the
// otpauth library. Pure functions of a secret and a time: the callers pass the core's clock, so
// tests can move it, and remember the last step used so a code never works twice.
import { Secret, TOTP } from "otpauth";

const totpPeriodSeconds = 30;
const window = 1;

function totpOf(secret: string, account = "", issuer = ""): TOTP {
  return new TOTP({ issuer, label: account, algorithm: "SHA1", digits: 6, period: totpPeriodSeconds, secret: Secret.fromBase32(secret) });
}

/** A new random secret (160 bits, as RFC 4226 recommends), in base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The otpauth:// URL authenticator apps read from the QR code. */
export function otpauthUrl(secret: string, account: string, issuer: string): string {
  return totpOf(secret, account, issuer).toString();
}

/** The time step a moment falls in. */
export const totpStep = (nowMs: number) => Math.floor(nowMs / 1000 / totpPeriodSeconds);

/**
 * The step a code is valid for at `nowMs` (±1 step), or undefined. A step at or before
 * `lastStep` was already used (or is older than a used one) and is refused: no replay.
 */
export function acceptedTotpStep(secret: string, code: string, nowMs: number, lastStep: number): number | undefined {
  const token = code.replace(/\s+/g, "");
  if (!/^\d{6}$/.test(token)) return undefined;
  const delta = totpOf(secret).validate({ token, timestamp: nowMs, window });
  if (delta === null) return undefined;
  const step = totpStep(nowMs) + delta;
  return step > lastStep ? step : undefined;
}

/** The code of a moment (tests and the imitation of an authenticator app). */
export function totpCodeAt(secret: string, nowMs: number): string {
  return totpOf(secret).generate({ timestamp: nowMs });
}
