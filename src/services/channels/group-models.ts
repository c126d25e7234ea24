// Which models a group can use right now: the enabled abilities (GET /api/user/models).
import { and, asc, eq, inArray } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { usableGroupsOf } from "../groups/user-groups.ts";

/** Distinct model names with an enabled channel in any of the groups, sorted. */
export async function enabledModelsOfGroups(groups: string[]): Promise<string[]> {
  if (groups.length === 0) return [];
  const rows = await db
    .selectDistinct({ model: t.abilities.model })
    .from(t.abilities)
    .where(and(inArray(t.abilities.group, groups), eq(t.abilities.enabled, true)))
    .orderBy(asc(t.abilities.model));
  return rows.map((row) => row.model);
}

/** GET /api/user/models: every model the user could call through any group they may pick. */
export function modelsForUserGroup(userGroup: string): Promise<string[]> {
  return enabledModelsOfGroups(Object.keys(usableGroupsOf(userGroup)));
}
