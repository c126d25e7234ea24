// Password hashing with Bun.password (argon2id). Verification also accepts bcrypt hashes, so a
// store migrated from new-api keeps its users' passwords.
const dummyHash = await Bun.password.hash("switchyard-timing-equaliser");

export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password);
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (!hash) {
    // Spend the same time as a real check so "no such user" is not faster than "wrong password".
    await Bun.password.verify(password, dummyHash);
    return false;
  }
  try {
    return await Bun.password.verify(password, hash);
  } catch {
    return false;
  }
}
