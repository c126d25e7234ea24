// Server side of an island: renders the React component to HTML (so the page is complete before
// any script runs) and writes its props next to it for hydrate.ts. The page must also list the
// island in its options (`islands: ["name"]`) so its bundle is loaded.
import { createElement, type ComponentType } from "react";
import { renderToString } from "react-dom/server";
import { jsonForScript } from "./layout/document.tsx";

let sequence = 0;

export function Island<Props extends object>(props: { name: string; component: ComponentType<Props>; props: Props; class?: string }) {
  const id = `island-props-${props.name}-${++sequence}`;
  // React escapes what it renders, so its HTML is inserted as is.
  const safeHtml = renderToString(createElement(props.component, props.props));
  return (
    <>
      <div data-island={props.name} data-island-props={id} class={props.class}>
        {safeHtml}
      </div>
      <script type="application/json" id={id}>
        {jsonForScript(props.props) as "safe"}
      </script>
    </>
  );
}
