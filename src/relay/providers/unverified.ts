// A body from outside (a client's request, an upstream's answer) before anything is checked: the
// field names its wire type documents, every value unknown until a check narrows it. The wire
// modules (claude-wire.ts, gemini-wire.ts, openai-chat-wire.ts) say what the vendor sends; this
// says that we have not yet seen it do so, so a conversion reads a field only after testing it.

type KeysOf<T> = T extends unknown ? keyof T : never;

/** T's fields (of every member, for a union), each unknown. */
export type Unverified<T> = { readonly [K in KeysOf<T>]?: unknown };

/** A JSON object (not null, not a list). */
export function isJsonObject(value: unknown): value is { readonly [key: string]: unknown } {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** The value, when it is a JSON object, to be read as an unchecked T; else undefined. */
export function unverified<T>(value: unknown): Unverified<T> | undefined {
  // Sound for every T: any object is one whose fields are all unknown (TypeScript cannot see
  // that through the generic mapped type).
  return isJsonObject(value) ? (value as Unverified<T>) : undefined;
}

/** The JSON objects of a list, each to be read as an unchecked T; [] when it is not a list. */
export function unverifiedList<T>(value: unknown): Unverified<T>[] {
  return (Array.isArray(value) ? value.filter(isJsonObject) : []) as Unverified<T>[];
}
