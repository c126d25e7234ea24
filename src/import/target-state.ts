// What the target store already holds: whether it counts as empty, where --merge must shift the
// imported ids, and which unique values are taken. A store that has only been started once
// (the initial root account, password unchanged, and default options) counts as empty: the
// import replaces that root with the source's own.
import { SQL } from "bun";
import { and, eq, gte, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { existsSync } from "node:fs";
import type { Config } from "../config.ts";
import { db, t } from "../store/client.ts";
import { defaultRootPasswordHash } from "../services/users/passwords.ts";
import { Role } from "../services/users/roles.ts";
import { emptyTaken, type IdShifts, type TakenValues } from "./import-context.ts";

export type TargetState = {
  empty: boolean;
  /** The untouched initial root of a store started once, to be replaced. */
  initialRootId?: number;
  /** "3 users, 2 channels" for the refusal message. */
  contents: string;
  /** A live root account is there (and stays: an initial root to be replaced does not count). */
  hasRoot?: boolean;
};

const countedTables = ["users", "tokens", "channels", "logs", "redemptions", "top_ups", "midjourneys", "tasks"] as const;

async function maxId(table: (typeof countedTables)[number]): Promise<number> {
  const column = t[table].id;
  const [row] = await db.select({ value: sql<number>`coalesce(max(${column}), 0)`.mapWith(Number) }).from(t[table]);
  return row?.value ?? 0;
}

async function countOf(table: (typeof countedTables)[number]): Promise<number> {
  const [row] = await db.select({ value: sql<number>`count(*)`.mapWith(Number) }).from(t[table]);
  return row?.value ?? 0;
}

/** Whether the target store exists at all (a dry run leaves a missing one missing). */
export async function targetStoreExists(store: Config["store"]): Promise<boolean> {
  if (store.dialect === "sqlite") return existsSync(store.path);
  const client = new SQL(store.url, { max: 1 });
  try {
    const [row] = (await client.unsafe("select to_regclass('users') is not null as present")) as { present: boolean }[];
    return Boolean(row?.present);
  } finally {
    await client.close();
  }
}

export async function readTargetState(): Promise<TargetState> {
  const counts = Object.fromEntries(await Promise.all(countedTables.map(async (table) => [table, await countOf(table)] as const)));
  const contents = countedTables
    .filter((table) => counts[table] > 0)
    .map((table) => `${counts[table]} ${table}`)
    .join(", ");
  const othersEmpty = countedTables.every((table) => table === "users" || counts[table] === 0);
  if (othersEmpty && counts.users === 0) return { empty: true, contents };
  if (othersEmpty && counts.users === 1) {
    const [root] = await db.select().from(t.users).limit(1);
    if (root && root.role === 100 && root.password === defaultRootPasswordHash && root.deleted_at === null) {
      return { empty: true, initialRootId: root.id, contents };
    }
  }
  const [root] = await db
    .select({ id: t.users.id })
    .from(t.users)
    .where(and(gte(t.users.role, Role.root), isNull(t.users.deleted_at)))
    .limit(1);
  return { empty: false, contents, hasRoot: root !== undefined };
}

export async function idShiftsFor(state: TargetState): Promise<IdShifts> {
  if (state.empty) return { users: 0, tokens: 0, channels: 0, logs: 0, redemptions: 0, top_ups: 0, midjourneys: 0, tasks: 0 };
  const entries = await Promise.all(countedTables.map(async (table) => [table, await maxId(table)] as const));
  return Object.fromEntries(entries) as IdShifts;
}

/** The target's unique values (only a non-empty target has any worth reading). */
export async function readTakenValues(state: TargetState): Promise<TakenValues> {
  const taken = emptyTaken();
  if (state.empty) return taken;
  const users = await db
    .select({
      username: t.users.username,
      email: t.users.email,
      github_id: t.users.github_id,
      wechat_id: t.users.wechat_id,
      telegram_id: t.users.telegram_id,
      linux_do_id: t.users.linux_do_id,
      oidc_id: t.users.oidc_id,
      aff_code: t.users.aff_code,
      access_token: t.users.access_token,
    })
    .from(t.users);
  for (const user of users) {
    taken.usernames.add(user.username);
    taken.targetUsernamesFolded.add(user.username.toLowerCase());
    if (user.email) taken.emails.add(user.email.toLowerCase());
    for (const binding of ["github_id", "wechat_id", "telegram_id", "linux_do_id", "oidc_id"] as const) {
      if (user[binding]) taken.socialIds[binding].add(user[binding]);
    }
    if (user.aff_code) taken.affCodes.add(user.aff_code);
    if (user.access_token) taken.accessTokens.add(user.access_token);
  }
  for (const row of await db.select({ key: t.tokens.key }).from(t.tokens)) taken.tokenKeys.add(row.key);
  for (const row of await db.select({ key: t.redemptions.key }).from(t.redemptions)) taken.redemptionKeys.add(row.key);
  for (const row of await db
    .select({ tradeNo: t.top_ups.trade_no })
    .from(t.top_ups)
    .where(and(isNotNull(t.top_ups.trade_no), ne(t.top_ups.trade_no, "")))) {
    taken.tradeNos.add(row.tradeNo);
  }
  return taken;
}

/** Removes the initial root of a started-once store (inside the import's transaction). */
export async function removeInitialRoot(tx: typeof db, id: number): Promise<void> {
  await tx.delete(t.users).where(eq(t.users.id, id));
}
