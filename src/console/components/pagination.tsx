// The one pagination of every list: previous and next, page numbers with an ellipsis around the
// current page, a jump to any page, the total pages and rows, and the page-size choice
// (10/20/50/100, remembered by the runtime under "page-size"). Each swaps only the table region
// through htmx and keeps the filters in the address.
import type { Translate } from "../../i18n/i18n.ts";

export type PaginationProps = {
  t: Translate;
  /** URL of the page the table lives on; p and page_size are replaced in it. */
  url: URL;
  target: string;
  page: number;
  pageSize: number;
  total: number;
  /** Set when the pager is its own region, loaded after the rows (data-table.tsx). */
  id?: string;
};

function linkTo(url: URL, page: number, pageSize?: number): string {
  const next = new URL(url);
  next.searchParams.set("p", String(page));
  if (pageSize === undefined) next.searchParams.delete("page_size");
  else next.searchParams.set("page_size", String(pageSize));
  return `${next.pathname}?${next.searchParams.toString()}`;
}

/** First, last, and two either side of the current page; "gap" where numbers are left out. */
export function pageItems(page: number, pages: number): (number | "gap")[] {
  const shown = new Set([1, pages]);
  for (let n = page - 2; n <= page + 2; n++) if (n >= 1 && n <= pages) shown.add(n);
  const sorted = [...shown].sort((a, b) => a - b);
  const items: (number | "gap")[] = [];
  for (const [index, n] of sorted.entries()) {
    const previous = sorted[index - 1];
    // A gap of exactly one page shows that page rather than an ellipsis standing for it.
    if (previous !== undefined && n - previous === 2) items.push(previous + 1);
    else if (previous !== undefined && n - previous > 2) items.push("gap");
    items.push(n);
  }
  return items;
}

function swap(target: string) {
  return { "hx-target": `#${target}`, "hx-swap": "outerHTML", "hx-push-url": "true" };
}

function PageButton(props: { href: string; target: string; label: string; current?: boolean; disabled?: boolean; ariaLabel?: string }) {
  return (
    <button
      type="button"
      class={`join-item btn btn-sm ${props.current ? "btn-active" : ""}`}
      hx-get={props.href}
      {...swap(props.target)}
      disabled={props.disabled}
      aria-current={props.current ? "page" : undefined}
      aria-label={props.ariaLabel}
      safe
    >
      {props.label}
    </button>
  );
}

export function Pagination(props: PaginationProps) {
  const { t, url, target, pageSize, total } = props;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, props.page), pages);
  const kept = [...url.searchParams].filter(([name]) => name !== "p" && name !== "page_size");
  return (
    <nav id={props.id} class="flex flex-wrap items-center justify-between gap-2 pt-3 text-sm" aria-label={t("分页")} data-pagination>
      <span class="text-base-content/60" data-page-totals safe>
        {t("共 {{pages}} 页，{{total}} 条", { pages, total })}
      </span>
      <div class="flex flex-wrap items-center gap-2">
        <div class="join">
          <PageButton href={linkTo(url, page - 1, pageSize)} target={target} label="‹" ariaLabel={t("上一页")} disabled={page <= 1} />
          {pageItems(page, pages).map((item) =>
            item === "gap" ? (
              <span class="join-item btn btn-sm btn-disabled" aria-hidden="true">
                {"…"}
              </span>
            ) : (
              <PageButton href={linkTo(url, item, pageSize)} target={target} label={String(item)} current={item === page} />
            ),
          )}
          <PageButton href={linkTo(url, page + 1, pageSize)} target={target} label="›" ariaLabel={t("下一页")} disabled={page >= pages} />
        </div>
        <form class="flex items-center gap-1" hx-get={url.pathname} {...swap(target)}>
          {kept.map(([name, value]) => (
            <input type="hidden" name={name} value={value} />
          ))}
          <input type="hidden" name="page_size" value={String(pageSize)} />
          <label class="flex items-center gap-1">
            <span class="text-base-content/60" safe>
              {t("跳至")}
            </span>
            <input
              type="number"
              name="p"
              min="1"
              max={String(pages)}
              required
              class="input input-bordered input-sm w-16"
              aria-label={t("跳转到页")}
            />
          </label>
          <button type="submit" class="btn btn-sm" safe>
            {t("跳转")}
          </button>
        </form>
        <select
          class="select select-bordered select-sm w-28"
          name="page_size"
          aria-label={t("每页条数")}
          data-page-size
          hx-get={linkTo(url, 1)}
          {...swap(target)}
          hx-include="this"
        >
          {[10, 20, 50, 100].map((size) => (
            <option value={String(size)} selected={size === pageSize} safe>
              {t("{{size}} 条/页", { size })}
            </option>
          ))}
        </select>
      </div>
    </nav>
  );
}
