// What stands in front of the credential endpoints (POST /api/user/login, register and reset),
// checked before their body is read:
//   - JSON only, and from this site: an HTML form on another site can post neither JSON nor our
//     Origin, so it cannot sign a visitor in as someone else (login CSRF). Scripts send no Origin.
//   - Limits of their own per endpoint, in SharedState. Sign-in and reset count FAILED attempts,
//     per client address and per account, so people sharing an address do not lock each other
//     out by signing in; registration counts every attempt per address (it creates accounts).
// Email codes, reset mails and OAuth keep the per-address `critical` limit (critical-guard.ts).
import type { Server } from "bun";
import { shared } from "../cache/open-shared-state.ts";
import type { Config } from "../config.ts";
import { AppError } from "../errors/app-error.ts";
import { optionText } from "../services/options/options.ts";
import { clientAddress } from "./client-address.ts";

export type CredentialScope = "login" | "register" | "reset";

const credentialPaths: Record<string, CredentialScope> = {
  "/api/user/login": "login",
  // The second step of a sign-in and passkey sign-in count their failures like passwords do.
  "/api/user/login/2fa": "login",
  "/api/user/passkey/login": "login",
  "/api/user/register": "register",
  "/api/user/reset": "reset",
};

export function credentialScopeOf(method: string, path: string): CredentialScope | undefined {
  return method === "POST" ? credentialPaths[path] : undefined;
}

const tooMany = (seconds: number) => new AppError("rate_limited", "请求过于频繁，请 {{seconds}} 秒后再试", { seconds });

/** The hosts this site answers as: the one the browser used, and ServerAddress's. */
function isOwnOrigin(origin: string, request: Request, trustProxy: boolean): boolean {
  let host: string;
  try {
    host = new URL(origin).host.toLowerCase();
  } catch {
    return false; // "null" (sandboxed frames, some redirects) and garbage
  }
  const forwarded = trustProxy ? request.headers.get("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const own = [forwarded, request.headers.get("host"), optionText("ServerAddress")].flatMap((value) => {
    if (!value) return [];
    try {
      return [new URL(value.includes("://") ? value : `http://${value}`).host.toLowerCase()];
    } catch {
      return [];
    }
  });
  return own.includes(host);
}

/** Before the body is read: JSON, from this site, and the address within its limit. */
export async function guardCredentialRequest(
  scope: CredentialScope,
  request: Request,
  server: Server<unknown> | null | undefined,
  config: Config,
): Promise<void> {
  const type = (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (type !== "application/json") throw new AppError("invalid", "请求体必须是 JSON", undefined, { httpStatus: 415 });
  const origin = request.headers.get("origin");
  const crossSite = request.headers.get("sec-fetch-site") === "cross-site";
  if (crossSite || (origin !== null && !isOwnOrigin(origin, request, config.trustProxy))) {
    throw new AppError("forbidden", "请求来源不被允许", undefined, { httpStatus: 403 });
  }
  const address = clientAddress(request, server, config.trustProxy);
  const { count, seconds } = config.criticalRateLimit;
  if (scope === "register") {
    const verdict = await shared.hitWindow(`rate:register:${address}`, count, seconds);
    if (!verdict.allowed) throw tooMany(verdict.retryAfterSeconds);
    return;
  }
  if ((await shared.countWindow(failureKey(scope, "address", address), seconds)) >= count) throw tooMany(seconds);
}

const failureKey = (scope: CredentialScope, kind: "address" | "account", subject: string) => `rate:${scope}-failed:${kind}:${subject}`;

/** After the body is read: the account named in it is not over its failure limit. */
export async function refuseLockedAccount(scope: CredentialScope, account: string, config: Config): Promise<void> {
  if (!account) return;
  const { count, seconds } = config.criticalRateLimit;
  if ((await shared.countWindow(failureKey(scope, "account", account.toLowerCase()), seconds)) >= count) throw tooMany(seconds);
}

/** A failed attempt counts against its address and the account it named. */
export async function recordCredentialFailure(
  scope: CredentialScope,
  info: { request: Request; server: Server<unknown> | null | undefined },
  account: string,
  config: Config,
): Promise<void> {
  const { seconds } = config.criticalRateLimit;
  const address = clientAddress(info.request, info.server, config.trustProxy);
  await shared.recordHit(failureKey(scope, "address", address), seconds);
  if (account) await shared.recordHit(failureKey(scope, "account", account.toLowerCase()), seconds);
}

/** The account a credential request names (username or email), lower-cased; "" when none. */
export function namedAccount(body: unknown, field: "username" | "email"): string {
  const value = body && typeof body === "object" ? (body as Record<string, unknown>)[field] : undefined;
  return typeof value === "string" ? value.trim().toLowerCase().slice(0, 256) : "";
}
