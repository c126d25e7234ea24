// Which words of a list occur in a text, in one pass over the text whatever the length of the
// list (an Aho-Corasick automaton). Searching each word in turn costs text length x number of
// words: a few thousand sensitive words (lists of that size are common) against a
// megabytes-long prompt held the event loop for seconds. Libraries we looked at report every
// occurrence, which for a one-letter word in ten megabytes of that letter means ten million
// objects; here each state of the automaton reports its words once per text, so the work is
// bounded by the text plus the size of the list.

export type WordMatcher = {
  /** The words occurring in any of the texts, each once; `prepare` maps a text first (lower case). */
  find(texts: readonly string[], prepare?: (text: string) => string): string[];
};

export function wordMatcher(words: readonly string[]): WordMatcher {
  const next: Map<number, number>[] = [new Map()];
  const wordAt: number[] = [-1];
  for (let w = 0; w < words.length; w++) {
    let state = 0;
    for (let i = 0; i < words[w]!.length; i++) {
      const code = words[w]!.charCodeAt(i);
      let target = next[state]!.get(code);
      if (target === undefined) {
        target = next.length;
        next.push(new Map());
        wordAt.push(-1);
        next[state]!.set(code, target);
      }
      state = target;
    }
    wordAt[state] = w;
  }
  // Failure links (the longest proper suffix that is also a prefix) and, from them, the nearest
  // suffix state that ends a word, found breadth first.
  const fail = new Int32Array(next.length);
  const wordLink = new Int32Array(next.length).fill(-1);
  const queue: number[] = [...next[0]!.values()];
  for (let head = 0; head < queue.length; head++) {
    const state = queue[head]!;
    for (const [code, target] of next[state]!) {
      let back = fail[state]!;
      while (back !== 0 && !next[back]!.has(code)) back = fail[back]!;
      const suffix = next[back]!.get(code);
      fail[target] = suffix !== undefined && suffix !== target ? suffix : 0;
      wordLink[target] = wordAt[fail[target]!]! >= 0 ? fail[target]! : wordLink[fail[target]!]!;
      queue.push(target);
    }
  }
  const starts = new Uint8Array(65536);
  for (const code of next[0]!.keys()) starts[code] = 1;

  return {
    find(texts, prepare) {
      const reported = new Uint8Array(next.length);
      const found = new Set<string>();
      for (const original of texts) {
        if (found.size === words.length) break;
        scan(prepare ? prepare(original) : original, reported, found);
      }
      return [...found];
    },
  };

  function scan(text: string, reported: Uint8Array, found: Set<string>): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      if (state === 0) {
        // Most characters start no word: skip them without touching the automaton.
        while (i < text.length && starts[text.charCodeAt(i)] === 0) i++;
        if (i === text.length) break;
      }
      const code = text.charCodeAt(i);
      while (state !== 0 && !next[state]!.has(code)) state = fail[state]!;
      state = next[state]!.get(code) ?? 0;
      for (let s = wordAt[state]! >= 0 ? state : wordLink[state]!; s >= 0 && reported[s] === 0; s = wordLink[s]!) {
        reported[s] = 1;
        found.add(words[wordAt[s]!]!);
      }
      if (found.size === words.length) return;
    }
  }
}
