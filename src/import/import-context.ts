// What the table mappers share while one import runs: the source's schema, the report, where
// imported ids land in the target, and which unique values are already taken there.
//
// Ids: into an empty store every row keeps its id, so scripts that name users, tokens or
// channels by id (and the New-Api-User header) keep working. With --merge each table's ids are
// shifted past the target's largest id, the same shift for every reference to that table, so
// the imported rows still point at each other and never at the target's own rows.
import type { Tables } from "../store/schema/define-schema.ts";
import type { ImportReport } from "./import-report.ts";
import type { SourceSchema } from "./source-schema.ts";

export type TargetRow<Name extends keyof Tables> = Tables[Name]["$inferInsert"];

export type IdShifts = {
  users: number;
  tokens: number;
  channels: number;
  logs: number;
  redemptions: number;
  top_ups: number;
  midjourneys: number;
  tasks: number;
};

/** Unique values of the target (and of rows already imported) that a new row must not repeat. */
export type TakenValues = {
  usernames: Set<string>;
  /** The target's own usernames in lower case (a merged look-alike of one is left out). */
  targetUsernamesFolded: Set<string>;
  emails: Set<string>;
  socialIds: Record<"github_id" | "wechat_id" | "telegram_id" | "linux_do_id" | "oidc_id", Set<string>>;
  affCodes: Set<string>;
  accessTokens: Set<string>;
  tokenKeys: Set<string>;
  redemptionKeys: Set<string>;
  tradeNos: Set<string>;
};

export type ImportContext = {
  schema: SourceSchema;
  report: ImportReport;
  shift: IdShifts;
  taken: TakenValues;
  /** Source user ids that were imported, and those left out (their tokens and logs go too). */
  importedUsers: Set<number>;
  skippedUsers: Set<number>;
  importedTokens: Set<number>;
  /** Target channel id -> name, for the channel_name the logs of new-api do not store. */
  channelNames: Map<number, string>;
  /** The source's QuotaPerUnit (quota per dollar), for the quota of old top-up orders. */
  quotaPerUnit: number;
  /** The store has a root account (its own, or one imported already): no second one is made. */
  rootTaken: boolean;
  /** What a root account of the source becomes then (--root-role). */
  rootRole: number;
};

export function emptyTaken(): TakenValues {
  return {
    usernames: new Set(),
    targetUsernamesFolded: new Set(),
    emails: new Set(),
    socialIds: { github_id: new Set(), wechat_id: new Set(), telegram_id: new Set(), linux_do_id: new Set(), oidc_id: new Set() },
    affCodes: new Set(),
    accessTokens: new Set(),
    tokenKeys: new Set(),
    redemptionKeys: new Set(),
    tradeNos: new Set(),
  };
}

/** A source user id as it is in the target (0 stays 0: "nobody"). */
export function shiftedUser(context: ImportContext, sourceId: number): number {
  return sourceId > 0 ? sourceId + context.shift.users : sourceId;
}

export function shiftedToken(context: ImportContext, sourceId: number): number {
  return sourceId > 0 ? sourceId + context.shift.tokens : sourceId;
}

export function shiftedChannel(context: ImportContext, sourceId: number): number {
  return sourceId > 0 ? sourceId + context.shift.channels : sourceId;
}

/** Source columns the mappers read or knowingly leave; anything else is named in the report once. */
export function noteUnreadColumns(context: ImportContext, table: string, handled: readonly string[]): void {
  const columns = context.schema.tables.get(table);
  if (!columns) return;
  const known = new Set(handled);
  const unread = [...columns].filter((column) => !known.has(column)).sort();
  if (unread.length > 0) context.report.note(`${table}: not carried over (Switchyard has no such field): ${unread.join(", ")}`);
}
