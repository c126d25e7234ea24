// Atomic multi-statement steps that behave the same on SQLite and PostgreSQL.
//
// A transaction body is a generator that yields drizzle queries and receives their results:
//
//   const moved = await transact(function* (tx) {
//     const rows = yield* run(tx.update(t.users).set(...).where(...).returning({ id: t.users.id }));
//     if (rows.length === 0) throw invalid("...");   // throwing rolls everything back
//     yield* run(tx.insert(t.logs).values(...));
//     return rows[0];
//   });
//
// Why a generator: bun:sqlite is one synchronous connection, and an async callback would let
// other requests' queries slip into the open transaction between awaits (and be rolled back
// with it). The SQLite driver runs each yielded query synchronously inside BEGIN IMMEDIATE ...
// COMMIT, so nothing can interleave; the PostgreSQL driver awaits them inside a real
// transaction on one pooled connection. The body is the same code for both.
import type { Database } from "bun:sqlite";
import type { Db } from "./database.ts";

/** A drizzle query builder (or any awaitable query) yielded by a transaction body. */
export type Query<T = unknown> = PromiseLike<T>;
export type TransactionBody<R> = (tx: Db) => Generator<Query, R, unknown>;

/** Yields one query and gives back its typed result. */
export function* run<T>(query: Query<T>): Generator<Query, T, unknown> {
  return (yield query) as T;
}

type SyncExecutable = { _prepare(): { execute(): { sync(): unknown } } };

/** A query that can also run synchronously: a statement prepared once (store/reusable-statement.ts). */
export type SyncQuery<T = unknown> = Query<T> & { runSync(): T };

function executeSqliteSync(query: Query): unknown {
  if (typeof (query as SyncQuery).runSync === "function") return (query as SyncQuery).runSync();
  const prepared = (query as unknown as SyncExecutable)._prepare?.();
  if (!prepared) throw new Error("transact: only drizzle query builders can be yielded on SQLite");
  return prepared.execute().sync();
}

export function transactSqlite<R>(db: Db, client: Database, body: TransactionBody<R>): Promise<R> {
  try {
    client.run("BEGIN IMMEDIATE");
  } catch (error) {
    return Promise.reject(error);
  }
  try {
    const generator = body(db);
    let step = generator.next();
    while (!step.done) step = generator.next(executeSqliteSync(step.value));
    client.run("COMMIT");
    return Promise.resolve(step.value);
  } catch (error) {
    client.run("ROLLBACK");
    return Promise.reject(error);
  }
}

type PgTransactional = {
  transaction<T>(callback: (tx: unknown) => Promise<T>): Promise<T>;
};

export function transactPg<R>(db: Db, body: TransactionBody<R>): Promise<R> {
  return (db as unknown as PgTransactional).transaction(async (tx) => {
    const generator = body(tx as Db);
    let step = generator.next();
    while (!step.done) step = generator.next(await step.value);
    return step.value;
  });
}
