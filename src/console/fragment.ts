// Partial page updates with htmx: the same route serves the whole page, or, when htmx asks for
// one region (HX-Request + HX-Target), only that region, rendered by the same component.
import { boundedPage } from "../services/paging.ts";
import type { PageContext } from "./page-context.ts";
import { htmlResponse } from "./render-page.tsx";

/** The element id htmx wants to replace, when this is a partial request. */
export function fragmentTarget(request: Request): string | undefined {
  if (request.headers.get("hx-request") !== "true") return undefined;
  return request.headers.get("hx-target") ?? undefined;
}

export function fragmentResponse(context: PageContext, html: JSX.Element): Response {
  return htmlResponse(context, { title: "" }, String(html));
}

/** Page and page size from the query: p is 1-based; the size falls back to the remembered one. */
export function pagingOf(context: PageContext, defaultSize = 10): { page: number; pageSize: number } {
  const query = context.url.searchParams;
  const remembered = /(?:^|;\s*)page_size=(\d+)/.exec(context.request.headers.get("cookie") ?? "")?.[1];
  const size = Number(query.get("page_size") ?? remembered ?? defaultSize);
  const page = Number(query.get("p") ?? 1);
  return {
    page: Number.isInteger(page) ? boundedPage(page) : 1,
    pageSize: [10, 20, 50, 100].includes(size) ? size : defaultSize,
  };
}
