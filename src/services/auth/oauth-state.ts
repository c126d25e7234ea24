// The `state` of the GitHub and LinuxDO flows. Issued by GET /api/oauth/state,
// kept hashed in the store for ten minutes, and used up by the callback: a forged, expired or
// replayed state is refused. The state also rides in a cookie of the browser that asked for it,
// so a callback link planted in another browser cannot sign that browser in. It remembers the
// invite code of the visitor and, when a signed-in user asked, that the flow binds their account.
import { AppError } from "../../errors/app-error.ts";
import type { OidcFlow } from "./oidc-provider.ts";
import { randomAlphanumeric } from "../users/random-codes.ts";
import { consumeCodeByValue, issueCode } from "../verifications/verification-codes.ts";

export const oauthStateCookie = "oauth_state";
export const oauthStateSeconds = 600;

export type OAuthIntent = { aff: string; bindUserId?: number; oidc?: OidcFlow };

export async function issueOAuthState(intent: OAuthIntent): Promise<string> {
  const state = randomAlphanumeric(32);
  // The subject only has to be unique: states of different visitors must not replace each other.
  await issueCode("oauth_state", `state-${randomAlphanumeric(16)}`, {
    code: state,
    ttlSeconds: oauthStateSeconds,
    payload: JSON.stringify(intent),
  });
  return state;
}

/** Uses up the state of a callback; refuses a missing, unknown, used or foreign one. */
export async function consumeOAuthState(state: string | undefined, cookieState: string | undefined): Promise<OAuthIntent> {
  const refuse = () => new AppError("forbidden", "state 为空或不一致", undefined, { httpStatus: 403 });
  if (!state || !cookieState || state !== cookieState) throw refuse();
  const found = await consumeCodeByValue("oauth_state", state);
  if (!found) throw refuse();
  const intent = JSON.parse(found.payload || "{}") as Partial<OAuthIntent>;
  return { aff: typeof intent.aff === "string" ? intent.aff : "", bindUserId: intent.bindUserId, oidc: intent.oidc };
}
