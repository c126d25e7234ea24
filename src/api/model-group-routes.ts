// Model and group lists for the console's pickers (spec §7): built-in models per channel type,
// the models a user can call, the group names, and the groups a user may choose.
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
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
    .get("/api/group", () => ok(groupNames()), { role: Role.admin });
