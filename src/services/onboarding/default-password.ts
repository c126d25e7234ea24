// Whether an account is root still signed with the default password (root / 123456).
// The console asks for a new password before anything else while it is. Checking a password
// hash costs tens of milliseconds, so the answer is remembered per stored hash: a changed
// password is a new hash and is checked once, on any instance, with nothing to invalidate.
import { verifyPassword } from "../users/passwords.ts";
import { rootDefaults } from "../users/registration.ts";
import type { UserRow } from "../users/user-view.ts";

const answers = new Map<string, boolean>();

export async function usesDefaultPassword(user: Pick<UserRow, "username" | "password">): Promise<boolean> {
  if (user.username !== rootDefaults.username || !user.password) return false;
  const known = answers.get(user.password);
  if (known !== undefined) return known;
  const answer = await verifyPassword(rootDefaults.password, user.password);
  if (answers.size >= 16) answers.clear();
  answers.set(user.password, answer);
  return answer;
}
