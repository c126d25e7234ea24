// The fields a change touched, as the audit trail keeps them: before and after for plain fields,
// only "changed" for secrets (channel keys, passwords, token keys, secret options...), so an
// entry or its export never carries a credential. Values are cut to a bounded length, and JSON
// object values (prices, group ratios) are compared key by key, so a price edit names the model.
export type AuditChange = { field: string; before?: unknown; after?: unknown } | { field: string; changed: true };

type Row = Record<string, unknown>;

/**
 * Names that hold credentials wherever they appear (a channel's or token's key and the multi-key
 * list, passwords, access tokens, *Secret and *Token options), besides the lists areas pass.
 */
const secretName = /^(key|keys|channel_info)$|password|secret|token$/i;
const maxText = 1000;

function bounded(value: unknown): unknown {
  if (typeof value === "string" && value.length > maxText) return `${value.slice(0, maxText)}… (${value.length})`;
  return value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function jsonObject(value: unknown): Row | undefined {
  if (typeof value !== "string" || !value.trimStart().startsWith("{")) return undefined;
  try {
    const parsed = JSON.parse(value) as unknown;
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Row) : undefined;
  } catch {
    return undefined;
  }
}

export type ChangeRules = {
  /** Fields shown only as changed. */
  secret?: readonly string[];
  /** Fields not worth recording (counters, timestamps the change did not choose). */
  ignore?: readonly string[];
};

const isSecret = (field: string, rules: ChangeRules) => rules.secret?.includes(field) === true || secretName.test(field);

/**
 * One field's change. A field whose old and new values are both JSON objects is compared key
 * by key ("ModelRatio.gpt-4o"), so a one-price edit does not copy the whole price table twice.
 */
export function changeOf(field: string, before: unknown, after: unknown, rules: ChangeRules = {}): AuditChange[] {
  if (sameValue(before, after)) return [];
  if (isSecret(field, rules)) return [{ field, changed: true }];
  const oldObject = jsonObject(before);
  const newObject = jsonObject(after);
  if (oldObject && newObject) {
    const keys = [...new Set([...Object.keys(oldObject), ...Object.keys(newObject)])];
    return keys.flatMap((key) => changeOf(`${field}.${key}`, oldObject[key], newObject[key], rules));
  }
  return [
    { field, ...(before === undefined ? {} : { before: bounded(before) }), ...(after === undefined ? {} : { after: bounded(after) }) },
  ];
}

/**
 * The fields that differ between two versions of a row: `before` absent for a creation, `after`
 * absent for a deletion. Empty values of a new row (or a deleted one) are left out.
 */
export function rowChanges(before: Row | undefined, after: Row | undefined, rules: ChangeRules = {}): AuditChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  const empty = (value: unknown) => value === undefined || value === null || value === "" || value === 0 || value === false;
  return fields
    .filter((field) => field !== "id" && !rules.ignore?.includes(field))
    .filter((field) => (before && after) || !empty((before ?? after)?.[field]))
    .flatMap((field) => changeOf(field, before?.[field], after?.[field], rules));
}
