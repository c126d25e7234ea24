// A page whose module is evaluated on its first render and kept from then on: a start evaluates
// no page module (and none of the components, islands and services only pages use), and a page
// costs one import the first time someone opens it. Routing and access rules stay in
// console-app.ts and page-route.ts, unchanged.
import type { PageContext } from "./page-context.ts";
import type { PageRenderer } from "./page-route.ts";

export function lazyPage<Context extends PageContext>(load: () => Promise<PageRenderer<Context>>): PageRenderer<Context> {
  let renderer: PageRenderer<Context> | undefined;
  let loading: Promise<PageRenderer<Context>> | undefined;
  return (context, params) => {
    if (renderer) return renderer(context, params);
    loading ??= load().then((loaded) => (renderer = loaded));
    return loading.then((loaded) => loaded(context, params));
  };
}
