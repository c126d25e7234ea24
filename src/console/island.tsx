// Server side of an island (islands/island-definition.ts). <Island> renders the React component to
// HTML (so the page is complete before any script runs) and writes its props next to it for
// hydrate.ts; <ScriptIsland> marks where a plain script's markup is. Both record the island
// (rendered-islands.ts), so the page loads its bundle, and only then.
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import type { IslandDefinition, ScriptIslandDefinition } from "../../islands/island-definition.ts";
import { jsonForScript } from "./layout/document.tsx";
import { recordIsland } from "./rendered-islands.ts";

let sequence = 0;

export function Island<Props extends object>(props: { of: IslandDefinition<Props>; props: Props; class?: string }) {
  const { name, component } = props.of;
  recordIsland(name);
  const id = `island-props-${name}-${++sequence}`;
  // React escapes what it renders, so its HTML is inserted as is.
  const safeHtml = renderToString(createElement(component, props.props));
  return (
    <>
      <div data-island={name} data-island-props={id} class={props.class}>
        {safeHtml}
      </div>
      <script type="application/json" id={id}>
        {jsonForScript(props.props) as "safe"}
      </script>
    </>
  );
}

/** An inert marker (a <template>, shown by no browser) placed before the markup the script drives. */
export function ScriptIsland(props: { of: ScriptIslandDefinition }) {
  recordIsland(props.of.name);
  return <template data-island={props.of.name}></template>;
}
