// Group commit for the ledger: the holds, settlements and releases of concurrent requests are
// written together, one transaction per batch, instead of one transaction each. The commit is
// what costs (SQLite writes WAL frames, PostgreSQL a commit record); statements are cheap, and
// the settlements of a batch share one update per user, token and channel. Each request still
// waits for the commit of its own batch before it goes on: nothing is acknowledged that is not
// in the store, and a crash loses no acknowledged money (holds are rows; see quota-holds.ts).
//
// A batch takes what arrived while the previous one was being written (when idle: what arrives
// within one turn of the event loop). Returns go first in a batch, so quota freed by settling
// requests is available to the holds written with them. If a batch fails for an unexpected
// reason, its moves are retried one by one, so one bad move cannot fail its neighbours.
import { transact } from "../../store/client.ts";
import {
  holdBody,
  releaseBody,
  settleBody,
  type HoldOutcome,
  type HoldRequest,
  type SettledBalances,
  type Settlement,
} from "./ledger-moves.ts";

type Pending<T, R> = { input: T; resolve(result: R): void; reject(error: unknown): void };

type Batch = {
  holds: Pending<HoldRequest, HoldOutcome>[];
  settlements: Pending<Settlement, SettledBalances>[];
  releases: Pending<string, boolean>[];
};

const emptyBatch = (): Batch => ({ holds: [], settlements: [], releases: [] });
const size = (batch: Batch) => batch.holds.length + batch.settlements.length + batch.releases.length;

let next = emptyBatch();
let writing = false;
let scheduled = false;

function schedule(): void {
  if (scheduled || writing) return;
  scheduled = true;
  setImmediate(flush);
}

function writeTogether(batch: Batch): Promise<void> {
  return transact(function* (tx) {
    const released: boolean[] = [];
    for (const release of batch.releases) released.push(yield* releaseBody(tx, release.input));
    const settled = batch.settlements.length ? yield* settleBody(tx, batch.settlements.map((job) => job.input)) : [];
    const held: HoldOutcome[] = [];
    for (const hold of batch.holds) held.push(yield* holdBody(tx, hold.input));
    return { released, settled, held };
  }).then(({ released, settled, held }) => {
    batch.releases.forEach((job, index) => job.resolve(released[index]!));
    batch.settlements.forEach((job, index) => job.resolve(settled[index]!));
    batch.holds.forEach((job, index) => job.resolve(held[index]!));
  });
}

function writeAlone(batch: Batch): Promise<unknown> {
  return Promise.all([
    ...batch.releases.map((job) => transact((tx) => releaseBody(tx, job.input)).then(job.resolve, job.reject)),
    ...batch.settlements.map((job) => transact((tx) => settleBody(tx, [job.input])).then(([result]) => job.resolve(result!), job.reject)),
    ...batch.holds.map((job) => transact((tx) => holdBody(tx, job.input)).then(job.resolve, job.reject)),
  ]);
}

async function flush(): Promise<void> {
  scheduled = false;
  writing = true;
  const batch = next;
  next = emptyBatch();
  try {
    await writeTogether(batch);
  } catch {
    await writeAlone(batch);
  } finally {
    writing = false;
    if (size(next) > 0) schedule();
  }
}

function enqueue<T, R>(list: (batch: Batch) => Pending<T, R>[], input: T): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    list(next).push({ input, resolve, reject });
    schedule();
  });
}

export const holdInBatch = (hold: HoldRequest) => enqueue((batch) => batch.holds, hold);
export const settleInBatch = (settlement: Settlement) => enqueue((batch) => batch.settlements, settlement);
export const releaseInBatch = (requestId: string) => enqueue((batch) => batch.releases, requestId);
