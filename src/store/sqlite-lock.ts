// One process per SQLite store. Two gateways on one file would each keep their own reservations
// and caches in memory (billing/reservation-book.ts), so together they could spend a balance
// twice; SQLite itself would not stop them. The serving process (and the importer) holds a lock
// beside the store, <store>.lock, for as long as it runs.
//
// The lock is SQLite's own file lock on that small database (POSIX advisory locks on Unix,
// LockFileEx on Windows): the operating system releases it when the process ends, however it
// ends, so a crash or `kill -9` leaves no stale lock to remove by hand. The holder's process id
// and start time are written in the file, for the message of the one refused.
import { Database } from "bun:sqlite";
import { chmodSync } from "node:fs";
import { createPrivateFolder, privateFileMode } from "./private-files.ts";
import { hostname } from "node:os";
import { dirname } from "node:path";

export class StoreLocked extends Error {}

export type StoreLock = { path: string; release(): void };

type Holder = { pid: number; host: string; since: string };

function refusal(storePath: string, lockPath: string, holder: Holder | undefined): StoreLocked {
  const who = holder ? `process ${holder.pid} on ${holder.host}, running since ${holder.since}` : "another process";
  return new StoreLocked(
    `the SQLite store ${storePath} is in use by ${who} (lock ${lockPath}). One SQLite file serves one process: ` +
      "stop the other one first, or, to run several instances, use PostgreSQL (SQL_DSN) and Redis (REDIS_CONN_STRING)",
  );
}

function readHolder(lock: Database): Holder | undefined {
  try {
    return (lock.query("select pid, host, since from holder").get() as Holder | null) ?? undefined;
  } catch {
    return undefined; // written by nobody yet
  }
}

/**
 * The open lock databases. Held here, not only by the caller: a Database nobody references is
 * closed by the garbage collector, and closing it would release the lock.
 */
const held = new Set<Database>();

/** Takes the store's lock or throws StoreLocked naming who holds it. */
export function lockSqliteStore(storePath: string): StoreLock {
  const lockPath = `${storePath}.lock`;
  // Folders the lock makes are private like the store's (it comes first on a new install).
  createPrivateFolder(dirname(lockPath));
  const lock = new Database(lockPath, { create: true });
  chmodSync(lockPath, privateFileMode);
  // No waiting: a held lock means another live process. What the file records need not survive
  // a power cut, so its commits skip the journal file and the syncs (a start stays fast).
  lock.run("PRAGMA busy_timeout = 0");
  lock.run("PRAGMA journal_mode = MEMORY");
  lock.run("PRAGMA synchronous = OFF");
  const take = () => {
    try {
      lock.run("BEGIN IMMEDIATE");
      return true;
    } catch {
      return false;
    }
  };
  // Once the holder is recorded (committed, so a refused process can read it), the lock is taken
  // again and kept: a RESERVED lock still lets others read the file, never write it.
  if (take()) {
    lock.run("create table if not exists holder (pid integer not null, host text not null, since text not null)");
    lock.run("delete from holder");
    lock.run("insert into holder values (?, ?, ?)", [process.pid, hostname(), new Date().toISOString()]);
    lock.run("COMMIT");
    if (take()) {
      held.add(lock);
      return {
        path: lockPath,
        release: () => {
          held.delete(lock);
          lock.close(false);
        },
      };
    }
  }
  const holder = readHolder(lock);
  lock.close(false);
  throw refusal(storePath, lockPath, holder);
}
