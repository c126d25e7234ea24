// `switchyard import <source>`: a new-api or one-api database into this Switchyard's store, in
// one transaction (all of it or nothing), then a summary. Order matters only for references:
// users before their tokens, channels before the logs that name them.
//
// The dry run maps every row exactly as the real run would (same checks, same skips) and
// writes nothing; a target store that does not exist yet is not even created.
import { sql } from "drizzle-orm";
import type { Config } from "../config.ts";
import { importedRootRoles, type ImportArguments } from "../tool-arguments.ts";
import { db, dialect, exclusiveTransaction, openStore, closeStore, StoreInUse, t, type Db } from "../store/client.ts";
import { lockSqliteStore, StoreLocked, type StoreLock } from "../store/sqlite-lock.ts";
import type { Tables } from "../store/schema/define-schema.ts";
import { noteAccountColumns, mapToken, mapUser } from "./map-accounts.ts";
import { mapChannel, noteChannelColumns } from "./map-channels.ts";
import { mapLog, noteLogColumns } from "./map-logs.ts";
import { mapRedemption, mapTopUp, noteMoneyColumns } from "./map-money.ts";
import { mapOptions, optionDifferences, previewOptions, quotaPerUnitOf } from "./map-options.ts";
import { mapMidjourney, mapTask, noteTaskColumns } from "./map-tasks.ts";
import type { ImportContext, TargetRow } from "./import-context.ts";
import { ImportReport } from "./import-report.ts";
import { progressBar } from "./progress-bar.ts";
import { openSource, type SourceDatabase, type SourceRow } from "./source-database.ts";
import { readSourceSchema } from "./source-schema.ts";
import { idShiftsFor, readTakenValues, readTargetState, removeInitialRoot, targetStoreExists, type TargetState } from "./target-state.ts";

export type ImportRequest = ImportArguments;

export class ImportRefused extends Error {}

const pageSize = 1000;
const insertSize = 400;

type Write = <Name extends keyof Tables>(table: Name, rows: TargetRow<Name>[]) => Promise<void>;

function targetLabel(store: Config["store"]): string {
  if (store.dialect === "sqlite") return `SQLite ${store.path}`;
  const url = new URL(store.url);
  if (url.password) url.password = "***";
  return `PostgreSQL ${url.toString()}`;
}

function lockTarget(store: Config["store"]): StoreLock | undefined {
  if (store.dialect !== "sqlite" || store.path === ":memory:") return undefined;
  try {
    return lockSqliteStore(store.path);
  } catch (error) {
    if (!(error instanceof StoreLocked)) throw error;
    throw new ImportRefused(
      `the store ${store.path} is in use by another process, most likely a running Switchyard: stop it, then import (nothing was written). ${error.message}`,
    );
  }
}

export async function runImport(config: Config, request: ImportRequest): Promise<string> {
  const source = await openSource(request.source);
  try {
    const schema = await readSourceSchema(source);
    const untouched = request.dryRun && !(await targetStoreExists(config.store));
    // Like a serving process, the importer has the SQLite store to itself (store/sqlite-lock.ts);
    // a real import also needs the file alone: any other process writing beside it would take
    // the ids the import shifted its rows to. A dry run only reads.
    const lock = untouched ? undefined : lockTarget(config.store);
    if (!untouched) await openAlone(config.store, !request.dryRun).catch((error: unknown) => (lock?.release(), Promise.reject(error)));
    try {
      const state: TargetState = untouched ? { empty: true, contents: "" } : await readTargetState();
      if (!state.empty && !request.merge) {
        throw new ImportRefused(
          `the target store is not empty (${state.contents}): import into a new store, or give --merge to add the source to it`,
        );
      }
      const report = new ImportReport();
      const optionRows = await readAll(source, "options", "key");
      const context: ImportContext = {
        schema,
        report,
        shift: untouched ? await idShiftsFor({ empty: true, contents: "" }) : await idShiftsFor(state),
        taken: untouched ? await readTakenValues({ empty: true, contents: "" }) : await readTakenValues(state),
        importedUsers: new Set(),
        skippedUsers: new Set(),
        importedTokens: new Set(),
        channelNames: new Map(),
        quotaPerUnit: quotaPerUnitOf(optionRows),
        rootTaken: state.hasRoot ?? false,
        rootRole: importedRootRoles[request.rootRole],
      };
      const storeOptions = untouched ? new Map<string, string>() : await readStoreOptions();
      const options = { rows: optionRows, store: storeOptions, merging: !state.empty };
      const copy = (write: Write) => copyEverything(source, context, request, options, write);
      if (request.dryRun) {
        await copy(async (table, rows) => report.countWritten(table, rows.length));
      } else {
        await exclusiveTransaction(async (tx) => {
          if (state.initialRootId !== undefined) await removeInitialRoot(tx, state.initialRootId);
          await copy(async (table, rows) => {
            await insertRows(tx, table, rows);
            report.countWritten(table, rows.length);
          });
          // The dashboard's hourly rollups are derived from the logs; emptied, the next refresh
          // recomputes them from the first log on, imported ones included.
          if (request.withLogs && !state.empty) await tx.delete(t.quota_data);
          if (dialect === "pg") await moveSequencesPastImportedIds(tx);
        });
      }
      if (!request.withLogs && schema.has("logs")) {
        report.note(`logs: ${await source.count("logs")} entries not imported (give --with-logs to import them)`);
      }
      if (state.initialRootId !== undefined)
        report.note("the target's initial root account (root / 123456) was replaced by the source's accounts");
      return report.render({ dryRun: request.dryRun, source: source.label, schema: schema.label, target: targetLabel(config.store) });
    } finally {
      if (!untouched) await closeStore();
      lock?.release();
    }
  } finally {
    await source.close();
  }
}

async function openAlone(store: Config["store"], alone: boolean): Promise<void> {
  try {
    await openStore(store, { alone });
  } catch (error) {
    if (!(error instanceof StoreInUse)) throw error;
    throw new ImportRefused(
      `the store ${store.dialect === "sqlite" ? store.path : ""} is in use by another process, most likely a running Switchyard: stop it, then import (nothing was written)`,
    );
  }
}

async function readStoreOptions(): Promise<Map<string, string>> {
  return new Map((await db.select().from(t.options)).map((row) => [row.key, row.value]));
}

async function readAll(source: SourceDatabase, table: string, key: string): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const page of source.pages(table, key, pageSize)) rows.push(...page);
  return rows;
}

/** Reads a source table page by page, maps each row, and hands the kept rows to `write`. */
async function copyTable<Name extends keyof Tables>(
  source: SourceDatabase,
  context: ImportContext,
  table: Name,
  map: (context: ImportContext, row: SourceRow) => TargetRow<Name> | null,
  write: Write,
  onPage?: (count: number) => void,
): Promise<void> {
  if (!context.schema.has(table)) return;
  for await (const page of source.pages(table, "id", pageSize)) {
    context.report.countRead(table, page.length);
    const rows = page.map((row) => map(context, row)).filter((row): row is TargetRow<Name> => row !== null);
    await write(table, rows);
    onPage?.(page.length);
  }
}

async function copyEverything(
  source: SourceDatabase,
  context: ImportContext,
  request: ImportRequest,
  options: { rows: SourceRow[]; store: Map<string, string>; merging: boolean },
  write: Write,
): Promise<void> {
  noteAccountColumns(context);
  noteChannelColumns(context);
  noteMoneyColumns(context);
  noteTaskColumns(context);
  await copyTable(source, context, "users", mapUser, write);
  await copyTable(source, context, "tokens", mapToken, write);

  const channelRows = await readAll(source, "channels", "id");
  context.report.countRead("channels", channelRows.length);
  const mapped = channelRows.flatMap((row) => mapChannel(context, row));
  await write(
    "channels",
    mapped.map((entry) => entry.channel),
  );
  await write(
    "abilities",
    mapped.flatMap((entry) => entry.abilities),
  );

  context.report.countRead("options", options.rows.length);
  const accepted = mapOptions(context, options.rows, options.store);
  if (!options.merging) await write("options", accepted);
  else {
    // A merge keeps the store's settings unless the operator, having seen them, asks for the source's.
    const differing = optionDifferences(accepted, options.store);
    previewOptions(context, differing, options.store, request.mergeOptions && !request.dryRun);
    if (request.mergeOptions) await write("options", differing);
  }
  await copyTable(source, context, "redemptions", mapRedemption, write);
  await copyTable(source, context, "top_ups", mapTopUp, write);
  await copyTable(source, context, "midjourneys", mapMidjourney, write);
  await copyTable(source, context, "tasks", mapTask, write);
  if (request.withLogs && context.schema.has("logs")) {
    noteLogColumns(context);
    const progress = progressBar(request.dryRun ? "reading logs" : "importing logs", await source.count("logs"));
    await copyTable(source, context, "logs", mapLog, write, (count) => progress.advance(count));
    progress.finish();
  }
}

async function insertRows<Name extends keyof Tables>(tx: Db, table: Name, rows: TargetRow<Name>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += insertSize) {
    const chunk = rows.slice(start, start + insertSize);
    if (table === "options") {
      for (const option of chunk as TargetRow<"options">[]) {
        await tx
          .insert(t.options)
          .values(option)
          .onConflictDoUpdate({ target: t.options.key, set: { value: option.value } });
      }
      continue;
    }
    await tx.insert(t[table] as Tables["users"]).values(chunk as TargetRow<"users">[]);
  }
}

/** PostgreSQL's serial sequences do not see explicit ids: move each past the largest one. */
async function moveSequencesPastImportedIds(tx: Db): Promise<void> {
  for (const table of ["users", "tokens", "channels", "logs", "redemptions", "top_ups", "midjourneys", "tasks"]) {
    await (tx as unknown as { execute(query: unknown): Promise<unknown> }).execute(
      sql.raw(`select setval(pg_get_serial_sequence('"${table}"', 'id'), coalesce((select max(id) from "${table}"), 0) + 1, false)`),
    );
  }
}
