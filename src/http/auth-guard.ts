// Who is calling /api, and may they? One Elysia plugin with a `role` macro:
//   .get("/self", ({ caller }) => ..., { role: Role.common })
// Sign-in is a session cookie or, for scripts, the system access token in Authorization.
// Either way the New-Api-User header must name the same user: other sites cannot set that
// header, so a forged cross-site request is refused even if a cookie rides along.
import { Elysia } from "elysia";
import { AppError, unauthorized } from "../errors/app-error.ts";
import { mustEnrolTwoFactor } from "../services/two-factor/two-factor-state.ts";
import { UserStatus } from "../services/users/roles.ts";
import { findLiveUserByAccessTokenHash } from "../services/users/user-queries.ts";
import type { AuditActor } from "../services/audit/audit-actor.ts";
import { sha256Hex } from "../services/users/random-codes.ts";
import type { UserRow } from "../services/users/user-view.ts";
import { clientAddress } from "./client-address.ts";
import { readSession, readSessionUser, sessionCookieName, sessionJwtPlugin, type SessionJwt } from "./session.ts";

export type Caller = {
  user: UserRow;
  via: "session" | "access_token";
  /** When the user of a session signed in (unix seconds); absent for access tokens. */
  signedInAt?: number;
  /** The public id of the caller's session row; absent for access tokens. */
  sessionRecordId?: number;
};

async function identify(request: Request, sessionJwt: SessionJwt, sessionToken: string | undefined): Promise<Caller> {
  const session = await readSession(sessionJwt, sessionToken);
  if (session) return { user: session.user, via: "session", signedInAt: session.signedInAt, sessionRecordId: session.recordId };
  const authorization = request.headers
    .get("authorization")
    ?.replace(/^Bearer\s+/i, "")
    .trim();
  if (authorization) {
    const user = await findLiveUserByAccessTokenHash(sha256Hex(authorization));
    if (!user) throw new AppError("unauthorized", "无权进行此操作，access token 无效");
    if (user.status !== UserStatus.enabled) throw new AppError("forbidden", "用户已被封禁");
    return { user, via: "access_token" };
  }
  throw unauthorized("无权进行此操作，未登录且未提供 access token");
}

function checkUserHeader(request: Request, user: UserRow): void {
  const header = request.headers.get("new-api-user");
  if (header === null || header.trim() === "") throw unauthorized("无权进行此操作，未提供 New-Api-User");
  const id = Number(header);
  if (!Number.isInteger(id)) throw unauthorized("无权进行此操作，New-Api-User 格式错误");
  if (id !== user.id) throw unauthorized("无权进行此操作，New-Api-User 与登录用户不匹配");
}

export async function authenticate(
  request: Request,
  sessionJwt: SessionJwt,
  sessionToken: string | undefined,
  minimumRole: number,
): Promise<Caller> {
  const caller = await identify(request, sessionJwt, sessionToken);
  checkUserHeader(request, caller.user);
  if (caller.user.role < minimumRole) throw new AppError("forbidden", "无权进行此操作，权限不足");
  // An admin the site requires two-factor of may only set it up (or leave) until it is on.
  // Scripts with the system access token are not affected (issue 28).
  if (caller.via === "session" && !enrolmentPaths.test(new URL(request.url).pathname) && (await mustEnrolTwoFactor(caller.user))) {
    throw new AppError("forbidden", twoFactorRequiredMessage);
  }
  return caller;
}

const twoFactorRequiredMessage = "管理员要求启用两步验证，请先在个人设置中启用";
/** What an admin without the required two-factor may still call. */
const enrolmentPaths = /^\/api\/(user\/(2fa\/.*|self|logout|sessions.*|passkey.*)|status)$/;

/**
 * The caller of a public endpoint that shows more to someone signed in: the session's user, or
 * a script's access token (with its New-Api-User header, as everywhere); else a visitor.
 */
export async function optionalCaller(
  request: Request,
  sessionJwt: SessionJwt,
  sessionToken: string | undefined,
): Promise<Caller | undefined> {
  const sessionUser = await readSessionUser(sessionJwt, sessionToken);
  if (sessionUser) return { user: sessionUser, via: "session" };
  if (!request.headers.get("authorization")) return undefined;
  return authenticate(request, sessionJwt, undefined, 0).catch(() => undefined);
}

/** Who the audit trail names for a change this caller makes (services/audit/). */
function auditActorOf(caller: Caller, address: string): AuditActor {
  return { id: caller.user.id, name: caller.user.username, address };
}

export function createAuthGuard(sessionSecret: string, trustProxy: boolean) {
  return new Elysia({ name: "auth-guard" }).use(sessionJwtPlugin(sessionSecret)).macro({
    role: (minimumRole: number) => ({
      async resolve({ request, server, cookie, sessionJwt }) {
        const token = cookie[sessionCookieName]?.value;
        const caller = await authenticate(
          request,
          sessionJwt as unknown as SessionJwt,
          typeof token === "string" ? token : undefined,
          minimumRole,
        );
        return { caller, actor: auditActorOf(caller, clientAddress(request, server, trustProxy)) };
      },
    }),
  });
}

export type AuthGuard = ReturnType<typeof createAuthGuard>;
