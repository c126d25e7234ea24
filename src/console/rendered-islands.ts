// Which islands a page rendered, so its document loads exactly their bundles (as Fresh does).
// page() (page-route.ts) runs each request's rendering inside its own collector; <Island> and
// <ScriptIsland> (island.tsx) record into it as they render, and renderPage reads it once the
// content is a string. AsyncLocalStorage keeps requests apart across the awaits of a page.
import { AsyncLocalStorage } from "node:async_hooks";
import { assetManifest } from "./assets/asset-store.ts";

const collector = new AsyncLocalStorage<Set<string>>();

export function collectingIslands<T>(render: () => T): T {
  return collector.run(new Set(), render);
}

export function recordIsland(name: string): void {
  const rendered = collector.getStore();
  // Either would leave an island on the page without its script: fail the render instead.
  if (!rendered) throw new Error(`island "${name}" rendered outside a console page (page-route.ts)`);
  if (!assetManifest().islands[name]) throw new Error(`island "${name}" has no bundle (islands/${name}/${name}.island.tsx)`);
  rendered.add(name);
}

/** The islands rendered so far by this request, in the order they first appeared. */
export function renderedIslands(): string[] {
  return [...(collector.getStore() ?? [])];
}
