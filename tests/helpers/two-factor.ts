// Two-factor from a test's side: an authenticator app (otpauth, on the clock the test gave the
// server) and the second step of a sign-in.
import { Secret, TOTP } from "otpauth";
import type { ApiSession, ApiResult } from "./api-session.ts";

/** An authenticator app for one secret, on a clock shifted by the server's offset. */
export class Authenticator {
  private lastStep = 0;
  constructor(
    readonly secret: string,
    private readonly clockOffsetMs = 0,
  ) {}

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  codeAt(timestampMs: number): string {
    return new TOTP({ secret: Secret.fromBase32(this.secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({
      timestamp: timestampMs,
    });
  }

  /**
   * A code the server has not seen yet: the current step's, or the next step's when the current
   * one was used (the server accepts one step of drift), as an app used twice in 30 s would.
   */
  freshCode(): string {
    const step = Math.floor(this.now() / 30_000);
    const use = step > this.lastStep ? step : this.lastStep + 1;
    if (use > step + 1) throw new Error("no fresh TOTP code within the window: use another account");
    this.lastStep = use;
    return this.codeAt(use * 30_000 + 1_000);
  }
}

/** Sets up and switches on TOTP for a signed-in session; returns its app and recovery codes. */
export async function enableTwoFactor(session: ApiSession, clockOffsetMs = 0): Promise<{ app: Authenticator; recoveryCodes: string[] }> {
  const setup = await session.post("/api/user/2fa/setup");
  if (!setup.body.success) throw new Error(`2fa setup failed: ${JSON.stringify(setup.body)}`);
  const app = new Authenticator(setup.body.data.secret, clockOffsetMs);
  const enabled = await session.post("/api/user/2fa/enable", { code: app.freshCode() });
  if (!enabled.body.success) throw new Error(`2fa enable failed: ${JSON.stringify(enabled.body)}`);
  return { app, recoveryCodes: enabled.body.data.recovery_codes };
}

/** Both steps of a password sign-in with a TOTP code. */
export async function loginWithTwoFactor(session: ApiSession, username: string, password: string, code: string): Promise<ApiResult> {
  const first = await session.login(username, password);
  if (!first.body.success || first.body.data?.require_2fa !== true) throw new Error(`first step: ${JSON.stringify(first.body)}`);
  const second = await session.post("/api/user/login/2fa", { code });
  if (second.body.success) session.userId = second.body.data.id;
  return second;
}
