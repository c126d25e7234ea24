// What a task keeps of an upstream's report: an upstream decides what it sends (a 5 MB
// description, a megabyte of buttons), the store keeps a bounded row whatever it is. Texts are
// shortened, addresses and JSON values too long to be real are not kept at all (a cut address or
// a cut JSON would be wrong, not short). The poll answers themselves are bounded where they are
// read (relay/tasks/task-poller.ts).

/** Descriptions, prompts, fail reasons: characters kept. */
export const keptTextChars = 4000;
/** An image or audio address longer than this is not an address a browser should be sent to. */
const keptUrlChars = 2048;
/** Buttons, properties, a song's clips: the JSON text kept, in characters. */
const keptJsonChars = 64 * 1024;

/** The text as kept: at most keptTextChars, marked when cut. */
export function keptText(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return value.length > keptTextChars ? `${value.slice(0, keptTextChars - 1)}…` : value;
}

/** An address, or undefined when it is not text or too long to keep. */
export function keptUrl(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= keptUrlChars ? value : undefined;
}

/** A JSON value as text, or undefined when absent or too large to keep. */
export function keptJson(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = JSON.stringify(value);
  return text.length <= keptJsonChars ? text : undefined;
}
