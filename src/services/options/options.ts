// The live option values of this process: loaded at start, read synchronously everywhere
// (the relay reads them per request, so they are never fetched from the store on the hot path),
// updated through updateOptions, and reloaded when another instance announces a change.
import { inArray } from "drizzle-orm";
import { shared } from "../../cache/open-shared-state.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import {
  definitionOf,
  internalOptionKeys,
  optionRegistry,
  type BoolOptionKey,
  type JsonOptionKey,
  type NumberOptionKey,
  type OptionKey,
  type StringOptionKey,
} from "./option-registry.ts";
import { checkEnableRequirements, normalizeOptionChange, type OptionChange } from "./option-values.ts";

const optionsTopic = "options";
const values = new Map<string, string>();
const parsedJson = new Map<string, unknown>();
const listeners = new Set<(keys: string[]) => void>();

function setLocal(key: string, value: string) {
  values.set(key, value);
  parsedJson.delete(key);
}

/** Creates missing options with their defaults, then loads every value. */
export async function loadOptions(): Promise<void> {
  let rows = await db.select().from(t.options);
  // Only the missing ones are written (building the insert of every default took about 3 ms of
  // each start); another instance may write them first, so the store's values are read again.
  const stored = new Set(rows.map((row) => row.key));
  const missing = Object.entries(optionRegistry).filter(([key]) => !stored.has(key)).map(([key, definition]) => ({ key, value: definition.default }));
  if (missing.length > 0) {
    await db.insert(t.options).values(missing).onConflictDoNothing();
    rows = await db.select().from(t.options);
  }
  for (const row of rows) setLocal(row.key, row.value);
  shared.subscribe(optionsTopic, (message) => void reloadOptions(JSON.parse(message) as string[]));
}

/** Re-reads some (or all) options from the store, e.g. after another instance changed them. */
export async function reloadOptions(keys?: string[]): Promise<void> {
  const rows = keys?.length
    ? await db.select().from(t.options).where(inArray(t.options.key, keys))
    : await db.select().from(t.options);
  for (const row of rows) setLocal(row.key, row.value);
  const changed = keys ?? rows.map((row) => row.key);
  for (const listener of listeners) listener(changed);
}

/** Called after any option change on any instance, with the changed keys. */
export function onOptionsChanged(listener: (keys: string[]) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function optionText(key: StringOptionKey | OptionKey): string {
  return values.get(key) ?? definitionOf(key).default;
}

export function optionBool(key: BoolOptionKey): boolean {
  return optionText(key) === "true";
}

export function optionNumber(key: NumberOptionKey): number {
  const number = Number(optionText(key));
  return Number.isFinite(number) ? number : Number(definitionOf(key).default);
}

export function optionJson<T>(key: JsonOptionKey): T {
  if (!parsedJson.has(key)) {
    try {
      parsedJson.set(key, JSON.parse(optionText(key)));
    } catch {
      parsedJson.set(key, JSON.parse(definitionOf(key).default));
    }
  }
  return parsedJson.get(key) as T;
}

/** Options for the settings pages: every key but the secret and internal ones. */
export function listVisibleOptions(): { key: string; value: string }[] {
  return Object.keys(optionRegistry)
    .filter((key) => !internalOptionKeys.has(key) && !definitionOf(key as OptionKey).secret)
    .map((key) => ({ key, value: optionText(key as OptionKey) }));
}

/** Validates and saves changed options in one transaction; all or nothing. */
export async function updateOptions(changes: OptionChange[]): Promise<{ key: string; value: string }[]> {
  const normalized = changes.map(normalizeOptionChange);
  const pending = new Map(normalized.map((change) => [change.key, change.value]));
  checkEnableRequirements([...pending.keys()], (key) => pending.get(key) ?? optionText(key));
  await setOptionsInternal(normalized);
  return normalized;
}

/** Writes already-validated values (also used for internal keys such as SessionSecret). */
export async function setOptionsInternal(entries: { key: string; value: string }[]): Promise<void> {
  if (entries.length === 0) return;
  await transact(function* (tx) {
    for (const entry of entries) {
      yield* run(
        tx.insert(t.options).values(entry).onConflictDoUpdate({ target: t.options.key, set: { value: entry.value } }),
      );
    }
  });
  for (const entry of entries) setLocal(entry.key, entry.value);
  await shared.publish(optionsTopic, JSON.stringify(entries.map((entry) => entry.key)));
}
