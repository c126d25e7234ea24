// Password hashing with Bun.password (argon2id). Verification also accepts bcrypt hashes, so a
// store migrated from new-api keeps its users' passwords.
/**
 * A hash of a random string nobody knows, verified when there is no user, so that "no such user"
 * costs the same time as "wrong password". Precomputed: hashing at start-up would add ~0.1 s.
 */
const timingEqualiserHash =
  "$argon2id$v=19$m=65536,t=2,p=1$rdw2+cZqGC633ofidDwbUBdTngNL1u+UqcCgIdpfNIw$HE6BvVz898wtOvIceu8HfjU6hK+k+SHZoZ+8AfrYUJE";

/**
 * The hash of root's initial password "123456", which is public anyway (the console warns until
 * it is changed). Precomputed so a new store starts without spending ~0.1 s hashing it.
 */
export const defaultRootPasswordHash =
  "$argon2id$v=19$m=65536,t=2,p=1$fc2Utc+egDYkm9xoeoWgIPklJF1VOoJauagSZuoLyHk$+C35sShvExkFd8nwTHDBn8rq7lD/T73aCAbFWIqmvAw";

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    // Spend the same time as a real check so "no such user" is not faster than "wrong password".
    await Bun.password.verify(password, timingEqualiserHash);
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}
