// Reservations of a single instance, in memory. A process that dies takes them along: nothing
// was debited for them, so nothing is lost, and a restarted process starts with none.
//
// On SQLite the balances are read synchronously, so reading, checking and reserving happen in
// one turn of the event loop and no settlement can commit in between. On PostgreSQL the read
// awaits the network: while any read is pending, settled charges are remembered with their
// versions so that a snapshot read before them does not count their money twice (see
// reservation-book.ts); once no read is pending, nobody holds an older snapshot and they are
// forgotten.
import type { Balance, Charged, Reservation, ReservationBook, ReserveOutcome, Snapshots } from "./reservation-types.ts";

type Account = { held: number; charges: { version: number; cost: number }[] };

function chargedSince(account: Account | undefined, balance: Balance): number {
  let sum = 0;
  if (account) for (const charge of account.charges) if (charge.version > balance.version) sum += charge.cost;
  return sum;
}

export function createMemoryReservations(): ReservationBook {
  const users = new Map<number, Account>();
  const tokens = new Map<number, Account>();
  /** Accounts holding remembered charges, emptied when no read is pending. */
  const remembering = new Set<Account>();
  let pendingReads = 0;

  const accountOf = (accounts: Map<number, Account>, id: number) => {
    let account = accounts.get(id);
    if (!account) accounts.set(id, (account = { held: 0, charges: [] }));
    return account;
  };

  const covers = (accounts: Map<number, Account>, id: number, balance: Balance, needed: number) => {
    if (balance.balance < 0) return false;
    const account = accounts.get(id);
    return balance.balance - (account?.held ?? 0) - chargedSince(account, balance) >= needed;
  };

  const decide = (reservation: Reservation, margin: number, snapshots: Snapshots): ReserveOutcome => {
    const needed = reservation.amount * margin;
    if (!covers(users, reservation.userId, snapshots.user, needed)) return "user-short";
    if (reservation.tokenId) {
      if (!snapshots.token || !covers(tokens, reservation.tokenId, snapshots.token, needed)) return "token-short";
      accountOf(tokens, reservation.tokenId).held += reservation.amount;
    }
    accountOf(users, reservation.userId).held += reservation.amount;
    return "reserved";
  };

  const end = (accounts: Map<number, Account>, id: number, amount: number, version?: number, cost = 0) => {
    const account = accounts.get(id);
    if (!account) return;
    account.held -= amount;
    if (pendingReads > 0 && cost > 0 && version !== undefined) {
      account.charges.push({ version, cost });
      remembering.add(account);
    }
    if (account.held <= 0 && account.charges.length === 0) accounts.delete(id);
  };

  const forgetCharges = () => {
    for (const account of remembering) account.charges = [];
    remembering.clear();
    for (const accounts of [users, tokens]) for (const [id, account] of accounts) if (account.held <= 0) accounts.delete(id);
  };

  return {
    kind: "memory",
    async reserve(reservation, margin, read) {
      const snapshots = read();
      if (!(snapshots instanceof Promise)) return decide(reservation, margin, snapshots);
      pendingReads++;
      try {
        return decide(reservation, margin, await snapshots);
      } finally {
        if (--pendingReads === 0 && remembering.size > 0) forgetCharges();
      }
    },
    async settled(reservation: Reservation, charged: Charged) {
      end(users, reservation.userId, reservation.amount, charged.userVersion, charged.cost);
      if (reservation.tokenId) end(tokens, reservation.tokenId, reservation.amount, charged.tokenVersion, charged.cost);
    },
    async released(reservation) {
      end(users, reservation.userId, reservation.amount);
      if (reservation.tokenId) end(tokens, reservation.tokenId, reservation.amount);
    },
    async refunded({ userId, tokenId, amount }) {
      for (const account of [users.get(userId), tokenId ? tokens.get(tokenId) : undefined]) {
        if (account) for (const charge of account.charges) charge.version -= amount;
      }
    },
    heldFor: (userId) => users.get(userId)?.held ?? 0,
    async close() {
      users.clear();
      tokens.clear();
      remembering.clear();
    },
  };
}
