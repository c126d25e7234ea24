// Statements the hot path runs on every request, built once. On SQLite (one connection) the
// statement is compiled by drizzle and SQLite once and reused with new values; building the SQL
// text and preparing it again on every call costs more than running it. On PostgreSQL the
// statement is built on the transaction's own connection each time (a pooled prepared statement
// would run outside the transaction), where the network round trip dominates anyway.
//
//   const debit = reusableStatement((tx) => tx.update(t.users).set({ quota: sql`${t.users.quota} - ${sql.placeholder("amount")}` })...);
//   yield* run(debit(tx, { amount: 5, id: 1 }));
import { db, dialect, type Db } from "./client.ts";
import { compileSqliteStatement, type CompiledStatement, type Preparable } from "./compiled-statement.ts";
import type { Query, SyncQuery } from "./transact.ts";

let counter = 0;

export function reusableStatement<T, V extends Record<string, unknown>>(build: (tx: Db) => Preparable<T>): (tx: Db, values: V) => Query<T> {
  const name = `reusable_${++counter}`;
  let sqlite: CompiledStatement<T> | undefined;
  let preparedOn: Db | undefined;
  return (tx, values) => {
    if (dialect === "sqlite") {
      // One connection: the statement prepared on `db` is the one the transaction uses.
      if (preparedOn !== db) {
        sqlite = compileSqliteStatement(build(db));
        preparedOn = db;
      }
      const statement = sqlite!;
      const query: SyncQuery<T> = {
        runSync: () => statement(values),
        // biome-ignore lint/suspicious/noThenProperty: deliberately thenable, so `await query` works as on drizzle's own queries
        then: (resolve, reject) =>
          Promise.resolve()
            .then(() => statement(values))
            .then(resolve, reject),
      };
      return query;
    }
    return build(tx).prepare(name).execute(values) as Query<T>;
  };
}
