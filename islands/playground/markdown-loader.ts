// The answer renderer (marked, DOMPurify, highlight.js: most of the island's weight) loads as its
// own chunk once the island is on screen, so the page shows and hydrates without waiting for it.
// Until it arrives, answers show as plain text.
import { useEffect, useState } from "react";

type Renderer = typeof import("./markdown.ts");

let renderer: Renderer | undefined;
let loading: Promise<Renderer> | undefined;
const waiting = new Set<() => void>();

export function loadRenderer(): Promise<Renderer> {
  loading ??= import("./markdown.ts").then((module) => {
    renderer = module;
    for (const notify of waiting) notify();
    waiting.clear();
    return module;
  });
  return loading;
}

/** The renderer once loaded (the component renders again when it arrives). */
export function useRenderer(): Renderer | undefined {
  const [, setLoaded] = useState(false);
  useEffect(() => {
    if (renderer) return;
    const notify = () => setLoaded(true);
    waiting.add(notify);
    void loadRenderer();
    return () => void waiting.delete(notify);
  }, []);
  return renderer;
}
