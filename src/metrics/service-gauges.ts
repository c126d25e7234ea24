// What the services and the shared state report to the metrics, wired at start (server.ts) so
// that neither imports the metrics: the ledger tells of each committed batch through its hook,
// the open holds and the shared state's health are read when Prometheus scrapes.
import type { SharedState } from "../cache/shared-state.ts";
import { onLedgerCommit } from "../services/billing/ledger-batch.ts";
import { openHolds, openHoldsQuota } from "../services/billing/quota-holds.ts";
import { observeLedgerCommit, registerReservations, registerSharedStateHealth } from "./metrics.ts";

export function watchServices(shared: SharedState): void {
  onLedgerCommit(observeLedgerCommit);
  registerReservations(openHolds, openHoldsQuota);
  registerSharedStateHealth(shared.kind, () => shared.healthy());
}
