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
  type OptionDefinition,
  type OptionKey,
  type StringOptionKey,
} from "./option-registry.ts";
import { validateOptionChanges, type OptionChange } from "./option-values.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { changeOf } from "../audit/audit-changes.ts";
import { auditEntry } from "../audit/record-audit.ts";

const optionsTopic = "options";
const values = new Map<string, string>();
const parsedJson = new Map<string, unknown>();
const listeners = new Set<(keys: string[]) => void>();
let version = 0;

function setLocal(key: string, value: string) {
  values.set(key, value);
  parsedJson.delete(key);
  version++;
}

/** Grows with every value this process takes in: caches of derived values compare it (one read). */
export function optionsVersion(): number {
  return version;
}

/**
 * A new install: no option and no user stored yet. Every start writes the missing options, so
 * only the very first start of a store sees none; an import brings users (and usually options),
 * so an upgraded or imported store is never taken for new. What the first start writes (the
 * `newInstall` values) is the lasting mark: later starts find the keys and leave them alone.
 */
async function isNewInstall(storedOptions: number): Promise<boolean> {
  if (storedOptions > 0) return false;
  const users = await db.select({ id: t.users.id }).from(t.users).limit(1);
  return users.length === 0;
}

/** Creates missing options with their defaults (a new install's own where it has one), then loads every value. */
export async function loadOptions(): Promise<void> {
  let rows = await db.select().from(t.options);
  // Only the missing ones are written (building the insert of every default took about 3 ms of
  // each start); another instance may write them first, so the store's values are read again.
  const stored = new Set(rows.map((row) => row.key));
  const newInstall = await isNewInstall(rows.length);
  const missing = Object.entries(optionRegistry)
    .filter(([key]) => !stored.has(key))
    .map(([key, definition]: [string, OptionDefinition]) => ({
      key,
      value: newInstall ? (definition.newInstall ?? definition.default) : definition.default,
    }));
  if (missing.length > 0) {
    await db.insert(t.options).values(missing).onConflictDoNothing();
    rows = await db.select().from(t.options);
  }
  for (const row of rows) setLocal(row.key, row.value);
  shared.subscribe(optionsTopic, (message) => void reloadOptions(JSON.parse(message) as string[]));
}

/** Re-reads some (or all) options from the store, e.g. after another instance changed them. */
export async function reloadOptions(keys?: string[]): Promise<void> {
  const rows = keys?.length ? await db.select().from(t.options).where(inArray(t.options.key, keys)) : await db.select().from(t.options);
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

/**
 * Validates and saves changed options in one transaction; all or nothing. A change someone made
 * (`actor`) goes to the audit trail in the same transaction; null for the gateway's own writes.
 */
export async function updateOptions(
  changes: OptionChange[],
  actor: AuditActor | null,
  action = "option.update",
): Promise<{ key: string; value: string }[]> {
  const normalized = validateOptionChanges(changes, optionText);
  await setOptionsInternal(normalized, actor ? { actor, action } : undefined);
  return normalized;
}

/** Secret options (EpayKey, SMTPToken, OidcClientSecret...) appear in the audit trail only as changed. */
function optionChanges(entries: { key: string; value: string }[]) {
  return entries.flatMap(({ key, value }) => {
    const known = Object.hasOwn(optionRegistry, key);
    const secret = !known || definitionOf(key as OptionKey).secret === true;
    return changeOf(key, optionText(key as OptionKey), value, { secret: secret ? [key] : [] });
  });
}

/** Writes already-validated values (also used for internal keys such as SessionSecret). */
export async function setOptionsInternal(
  entries: { key: string; value: string }[],
  audit?: { actor: AuditActor; action: string },
): Promise<void> {
  if (entries.length === 0) return;
  await transact(function* (tx) {
    if (audit) {
      const keys = entries.map((entry) => entry.key);
      yield* auditEntry(tx, audit.actor, { action: audit.action, targetType: "option", targetId: keys, changes: optionChanges(entries) });
    }
    for (const entry of entries) {
      yield* run(
        tx
          .insert(t.options)
          .values(entry)
          .onConflictDoUpdate({ target: t.options.key, set: { value: entry.value } }),
      );
    }
  });
  for (const entry of entries) setLocal(entry.key, entry.value);
  await shared.publish(optionsTopic, JSON.stringify(entries.map((entry) => entry.key)));
}
