// Upgrading a store that still has hold rows (the durable holds of earlier versions, debited from
// balances and waiting for a settlement that can no longer come): the migration that drops the
// table gives every one of them back first, to the user and, where it was debited, the token.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { SQL } from "bun";
import { Database } from "bun:sqlite";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import { migratePg, migrateSqlite } from "../../src/store/migrate.ts";
import { pgMigrations, sqliteMigrations } from "../../src/store/migrations.generated.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let store: TestStore;
beforeAll(async () => {
  store = await createTestStore();
});
afterAll(() => store.dispose());

const before = (tag: string) => (migrations: typeof sqliteMigrations) =>
  migrations.slice(
    0,
    migrations.findIndex((m) => m.tag === tag),
  );

async function migrate(all: boolean): Promise<void> {
  const upTo = all ? (m: typeof sqliteMigrations) => m : before("0005_reservations_leave_the_store");
  if (store.dialect === "sqlite") {
    const client = new Database(store.env.SQLITE_PATH!);
    migrateSqlite(client, upTo(sqliteMigrations));
    client.close();
    return;
  }
  const client = new SQL(store.env.SQL_DSN!);
  await migratePg(drizzlePg({ client }), client, upTo(pgMigrations));
  await client.close();
}

test("open holds are given back before their table is dropped", async () => {
  await migrate(false);
  const yes = store.dialect === "pg" ? "true" : "1";
  const no = store.dialect === "pg" ? "false" : "0";
  await store.query("insert into users (id, username, password, quota) values (41, 'held', 'x', 1000), (42, 'free', 'x', 500)");
  await store.query(
    "insert into tokens (id, user_id, key, name, remain_quota, unlimited_quota) values (7, 41, 'k-limited', 'l', 100, false), (8, 41, 'k-open', 'o', 0, true)"
      .replaceAll("false", no)
      .replaceAll("true", yes),
  );
  await store.query(
    `insert into quota_holds (request_id, user_id, token_id, amount, token_debited, created_at) values
       ('r1', 41, 7, 30, ${yes}, 1), ('r2', 41, 7, 20, ${yes}, 1), ('r3', 41, 8, 5, ${no}, 1)`,
  );
  await migrate(true);
  const users = await store.query<{ id: number; quota: number }>("select id, quota from users where id in (41, 42) order by id");
  expect(users.map((user) => [Number(user.id), Number(user.quota)])).toEqual([
    [41, 1055],
    [42, 500],
  ]);
  const tokens = await store.query<{ id: number; remain_quota: number }>(
    "select id, remain_quota from tokens where id in (7, 8) order by id",
  );
  expect(tokens.map((token) => [Number(token.id), Number(token.remain_quota)])).toEqual([
    [7, 150],
    [8, 0],
  ]);
  const tables = await store.query<{ name: string }>(
    store.dialect === "pg"
      ? "select tablename as name from pg_tables where tablename = 'quota_holds'"
      : "select name from sqlite_master where name = 'quota_holds'",
  );
  expect(tables).toEqual([]);
});
