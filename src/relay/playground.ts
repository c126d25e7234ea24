// POST /pg/chat/completions: the console's playground. A signed-in user (session cookie and
// New-Api-User, like /api) chats in a group they may use; it is billed to the user alone, with
// no token involved, and logged under the token name "playground-<group>" (new-api).
import { Elysia } from "elysia";
import { clientAddress } from "../http/client-address.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { Role } from "../services/users/roles.ts";
import { resolveGroup } from "./auth/token-auth.ts";
import { endpoints } from "./endpoints.ts";
import type { RelayTimeouts } from "./pipeline/attempt-types.ts";
import type { IdleTimeoutServer } from "./pipeline/connection-idle.ts";
import { relayRequest } from "./pipeline/relay-pipeline.ts";
import type { RelayCaller } from "./relay-context.ts";
import type { ParsedCall } from "./request/read-call.ts";

/** The group comes from the body; it is ours, so it is taken out before the body goes upstream. */
function withChosenGroup(caller: RelayCaller, call: ParsedCall): { caller: RelayCaller; call: ParsedCall } {
  const requested = typeof call.json?.group === "string" ? call.json.group.trim() : "";
  const group = resolveGroup(caller.group, requested);
  let relayed = call;
  if (call.json && "group" in call.json) {
    const { group: _group, ...json } = call.json;
    relayed = { ...call, json, rawBody: new TextEncoder().encode(JSON.stringify(json)) };
  }
  return { caller: { ...caller, group, tokenName: `playground-${group}` }, call: relayed };
}

export const playgroundRoutes = ({ auth, config }: WebDeps, timeouts: RelayTimeouts) =>
  new Elysia({ prefix: "/pg" }).use(auth).post(
    "/chat/completions",
    ({ request, caller, server }) =>
      relayRequest({
        request,
        server: server as IdleTimeoutServer | undefined,
        clientAddress: () => clientAddress(request, server, config.trustProxy),
        endpoint: endpoints.chat,
        timeouts,
        bodyLimits: config.bodyLimits,
        authenticate: async () => ({
          userId: caller.user.id,
          username: caller.user.username,
          role: caller.user.role,
          group: caller.user.group,
          tokenId: 0,
          tokenKey: "",
          tokenName: `playground-${caller.user.group}`,
          tokenLimited: false,
          modelLimits: null,
          captureUntil: Number(caller.user.capture_until),
        }),
        completeCaller: withChosenGroup,
      }),
    { role: Role.common, parse: "none" },
  );
