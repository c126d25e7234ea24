// Group commit for settlements: the settlements of concurrent requests are written together,
// one transaction per batch, instead of one transaction each. The commit is what costs (SQLite
// writes WAL frames, PostgreSQL a commit record); statements are cheap, and a batch shares one
// update per user, token and channel. Each request still waits for the commit of its own batch:
// nothing is acknowledged that is not in the store.
//
// A batch takes what arrived while the previous one was being written (when idle: what arrives
// within one turn of the event loop). If a batch fails for an unexpected reason, its settlements
// are retried one by one, so one bad settlement cannot fail its neighbours.
import { transact } from "../../store/client.ts";
import { settleBody } from "./ledger-moves.ts";
import type { SettledBalances, Settlement } from "./settlement.ts";

type Pending = { input: Settlement; resolve(result: SettledBalances): void; reject(error: unknown): void };

let next: Pending[] = [];
let writing = false;
let scheduled = false;
const idleWaiters: (() => void)[] = [];

type CommitListener = (settlements: number, seconds: number) => void;
let commitListener: CommitListener = () => {};

/** Told of every batch committed: how many settlements, in how long (metrics/service-gauges.ts). */
export function onLedgerCommit(listener: CommitListener): void {
  commitListener = listener;
}

function schedule(): void {
  if (scheduled || writing) return;
  scheduled = true;
  setImmediate(flush);
}

async function writeTogether(batch: Pending[]): Promise<void> {
  const settled = await transact((tx) =>
    settleBody(
      tx,
      batch.map((job) => job.input),
    ),
  );
  for (const [index, job] of batch.entries()) job.resolve(settled[index]!);
}

function writeAlone(batch: Pending[]): Promise<unknown> {
  return Promise.all(
    batch.map((job) => transact((tx) => settleBody(tx, [job.input])).then(([result]) => job.resolve(result!), job.reject)),
  );
}

async function flush(): Promise<void> {
  scheduled = false;
  writing = true;
  const batch = next;
  next = [];
  try {
    const started = performance.now();
    await writeTogether(batch);
    commitListener(batch.length, (performance.now() - started) / 1000);
  } catch {
    await writeAlone(batch);
  } finally {
    writing = false;
    if (next.length > 0) schedule();
    else for (const wake of idleWaiters.splice(0)) wake();
  }
}

export function settleInBatch(settlement: Settlement): Promise<SettledBalances> {
  return new Promise<SettledBalances>((resolve, reject) => {
    next.push({ input: settlement, resolve, reject });
    schedule();
  });
}

/** Resolves once every settlement handed over so far is committed (or failed). */
export function batchesIdle(): Promise<void> {
  if (!writing && !scheduled && next.length === 0) return Promise.resolve();
  return new Promise((resolve) => idleWaiters.push(resolve));
}
