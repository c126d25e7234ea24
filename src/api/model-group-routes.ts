// Model and group lists for the console's pickers: built-in models per channel type,
// the models a user can call, the group names, the groups a user may choose, and the pricing.
import { Elysia } from "elysia";
import { optionalCaller } from "../http/auth-guard.ts";
import { sessionCookieName, type SessionJwt } from "../http/session.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { pricingTable } from "../services/pricing/pricing-table.ts";
import { modelsForUserGroup } from "../services/channels/group-models.ts";
import { builtInModelsByType } from "../services/channels/model-names.ts";
import { groupNames, selectableGroups } from "../services/groups/user-groups.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

export const modelGroupRoutes = ({ auth }: WebDeps) =>
  new Elysia()
    .use(auth)
    .get("/api/models", () => ok(builtInModelsByType()), { role: Role.common })
    .get("/api/user/models", async ({ caller }) => ok(await modelsForUserGroup(caller.user.group)), { role: Role.common })
    .get("/api/user/self/groups", ({ caller }) => ok(selectableGroups(caller.user.group)), { role: Role.common })
    .get("/api/group", () => ok(groupNames()), { role: Role.admin })
    // Public: visitors see the default groups' prices; a signed-in user (or a script with the
    // user's access token) sees their own groups.
    .get("/api/pricing", async ({ request, cookie, sessionJwt }) => {
      const token = cookie[sessionCookieName]?.value;
      const caller = await optionalCaller(request, sessionJwt as unknown as SessionJwt, typeof token === "string" ? token : undefined);
      return { success: true, message: "", ...(await pricingTable(caller?.user.group)) };
    });
