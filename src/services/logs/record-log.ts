// Writing non-consumption log entries (top-ups, admin actions, system events). Consumption logs
// are written by billing settlement in the same transaction as the quota change.
import { t } from "../../store/client.ts";
import type { Db } from "../../store/client.ts";
import { nowSeconds } from "../../clock.ts";
import type { LogTypeValue } from "./log-types.ts";

export type LogEntryInput = {
  user_id: number;
  username?: string;
  type: LogTypeValue;
  content: string;
  quota?: number;
};

/** Builds the insert for a log entry; yield it inside a transaction or await it alone. */
export function insertLog(tx: Db, entry: LogEntryInput) {
  return tx.insert(t.logs).values({
    user_id: entry.user_id,
    username: entry.username ?? "",
    type: entry.type,
    content: entry.content,
    quota: entry.quota ?? 0,
    created_at: nowSeconds(),
  });
}
