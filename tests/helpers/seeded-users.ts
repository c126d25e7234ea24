// Many users at once without paying a password hash each: rows written straight into the store,
// each with a system access token (stored as its SHA-256, as the server keeps them), and an
// ApiSession that authenticates with that token and the New-Api-User header.
import { createHash } from "node:crypto";
import { ApiSession } from "./api-session.ts";
import type { TestServer } from "./test-server.ts";

export type SeededUser = { id: number; username: string; session: ApiSession };

export async function seedUsers(
  server: TestServer,
  prefix: string,
  count: number,
  fields: { quota?: number; group?: string; email?: string; setting?: string } = {},
): Promise<SeededUser[]> {
  const users: SeededUser[] = [];
  for (let index = 0; index < count; index++) {
    const username = `${prefix}${index}`.slice(0, 12);
    const token = `seed-${crypto.randomUUID()}`;
    const hash = createHash("sha256").update(token).digest("hex");
    await server.store.query(
      `insert into users (username, password, display_name, role, status, quota, "group", email, setting, access_token, created_at)
       values (?, ?, ?, 1, 1, ?, ?, ?, ?, ?, 0)`,
      username,
      "!seeded-no-password",
      username,
      fields.quota ?? 0,
      fields.group ?? "default",
      fields.email ?? "",
      fields.setting ?? "",
      hash,
    );
    const [row] = await server.store.query<{ id: number }>("select id from users where username = ?", username);
    const session = new ApiSession(server.url);
    session.accessToken = token;
    session.userId = row!.id;
    users.push({ id: row!.id, username, session });
  }
  return users;
}
