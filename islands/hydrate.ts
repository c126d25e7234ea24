// Client boot for React islands: each island bundle calls mountIsland with its component; the
// server rendered the component's HTML inside <div data-island="name"> and its props as JSON in
// the script named by data-island-props. Only those regions become React; the rest stays HTML.
import { createElement, type ComponentType } from "react";
import { hydrateRoot } from "react-dom/client";

export function mountIsland<Props extends object>(name: string, component: ComponentType<Props>): void {
  const start = () => {
    for (const element of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
      if (element.dataset.hydrated) continue;
      element.dataset.hydrated = "true";
      const propsElement = document.getElementById(element.dataset.islandProps ?? "");
      const props = JSON.parse(propsElement?.textContent ?? "{}") as Props;
      hydrateRoot(element, createElement(component, props));
    }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}
