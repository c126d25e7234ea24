// Reasoning some models write inline in their content, as <think>…</think> at its start.

/** The reasoning and the answer of a content that may start with <think>…</think>. */
export function splitThinking(content: string): { reasoning: string; answer: string } {
  if (!content.startsWith("<think>")) return { reasoning: "", answer: content };
  const end = content.indexOf("</think>");
  if (end < 0) return { reasoning: content.slice(7), answer: "" };
  return { reasoning: content.slice(7, end), answer: content.slice(end + 8).replace(/^\s+/, "") };
}
