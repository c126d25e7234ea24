// Groups: the names with a ratio (GroupRatio) and the ones a user may choose for a token
// (UserUsableGroups, plus the user's own group), for GET /api/group/ and /api/user/self/groups.
import { optionJson } from "../options/options.ts";

/** The description given to a user's own group when the usable list does not name it. */
const ownGroupDescription = "用户分组";

export function groupRatios(): Record<string, number> {
  return optionJson<Record<string, number>>("GroupRatio");
}

/** GET /api/group/: every group name that has a ratio. */
export function groupNames(): string[] {
  return Object.keys(groupRatios());
}

/** Group -> description of the groups a user of `userGroup` may pick (new-api's rule). */
export function usableGroupsOf(userGroup: string): Record<string, string> {
  const usable = { ...optionJson<Record<string, string>>("UserUsableGroups") };
  if (userGroup && !Object.hasOwn(usable, userGroup)) usable[userGroup] = ownGroupDescription;
  return usable;
}

/** GET /api/user/self/groups: usable groups that have a ratio, with ratio and description. */
export function selectableGroups(userGroup: string): Record<string, { ratio: number; desc: string }> {
  const usable = usableGroupsOf(userGroup);
  const result: Record<string, { ratio: number; desc: string }> = {};
  for (const [name, ratio] of Object.entries(groupRatios())) {
    if (Object.hasOwn(usable, name)) result[name] = { ratio, desc: usable[name]! };
  }
  return result;
}

/** Whether the admin offered any groups to choose (UserUsableGroups names a group with a ratio). */
export function adminOffersGroups(): boolean {
  const ratios = groupRatios();
  return Object.keys(optionJson<Record<string, string>>("UserUsableGroups")).some((name) => Object.hasOwn(ratios, name));
}

/** A token may name no group (it then uses its owner's) or one of the owner's selectable groups. */
export function isSelectableGroup(userGroup: string, group: string): boolean {
  return group === "" || Object.hasOwn(selectableGroups(userGroup), group);
}
