// Client boot for React islands: each island bundle calls mountIsland with its definition; the
// server rendered the component's HTML inside <div data-island="name"> and its props as JSON in
// the script named by data-island-props. Only those regions become React; the rest stays HTML.
import { createElement } from "react";
import { hydrateRoot } from "react-dom/client";
import type { IslandDefinition } from "./island-definition.ts";

export function mountIsland<Props extends object>(island: IslandDefinition<Props>): void {
  const start = () => {
    for (const element of document.querySelectorAll<HTMLElement>(`[data-island="${island.name}"]`)) {
      if (element.dataset.hydrated) continue;
      element.dataset.hydrated = "true";
      const propsElement = document.getElementById(element.dataset.islandProps ?? "");
      const props = JSON.parse(propsElement?.textContent ?? "{}") as Props;
      hydrateRoot(element, createElement(island.component, props));
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
