// Who may act on whom (docs/COMPATIBILITY.md, Roles and permissions): nobody reads, edits, manages or deletes a user of the same or a
// higher role, nor creates one; a super admin can never be disabled, deleted or demoted.
import { forbidden } from "../../errors/app-error.ts";
import type { UserRow } from "./user-view.ts";

export function outranks(actorRole: number, targetRole: number): boolean {
  return actorRole > targetRole;
}

/** Throws `message` unless the actor's role is strictly higher than the target's. */
export function assertOutranks(actor: UserRow, target: Pick<UserRow, "role">, message: string): void {
  if (!outranks(actor.role, target.role)) throw forbidden(message);
}
