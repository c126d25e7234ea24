// Finding a model by any part of its name, as people type it: every word of the query must occur
// in the name, ignoring case and the separators vendors disagree on ("sonnet 4.5" finds
// claude-sonnet-4-5-20250929, "gpt5 codex" finds gpt-5-codex). Shared by the price table, the
// price editor, the unpriced-models view and the playground's model picker.

/** Lower case, without spaces, dashes, underscores, dots, slashes, colons or at signs. */
const squash = (text: string) => text.toLowerCase().replace(/[\s\-_./:@]+/g, "");

export function matchesModelQuery(name: string, query: string): boolean {
  const words = query.split(/\s+/).map(squash).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = squash(name);
  return words.every((word) => haystack.includes(word));
}
