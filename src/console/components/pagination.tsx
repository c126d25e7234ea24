// Page links and the page-size choice (10/20/50/100, remembered by the runtime under
// "page-size"), swapping only the table region through htmx.
import type { Translate } from "../../i18n/i18n.ts";

export type PaginationProps = {
  t: Translate;
  /** URL of the page the table lives on; p and page_size are replaced in it. */
  url: URL;
  target: string;
  page: number;
  pageSize: number;
  total: number;
};

function linkTo(url: URL, page: number, pageSize?: number): string {
  const next = new URL(url);
  next.searchParams.set("p", String(page));
  if (pageSize === undefined) next.searchParams.delete("page_size");
  else next.searchParams.set("page_size", String(pageSize));
  return `${next.pathname}?${next.searchParams.toString()}`;
}

export function Pagination(props: PaginationProps) {
  const { t, url, target, page, pageSize, total } = props;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const visible = [...new Set([1, page - 1, page, page + 1, pages])].filter((n) => n >= 1 && n <= pages).sort((a, b) => a - b);
  return (
    <div class="flex flex-wrap items-center justify-between gap-2 pt-3 text-sm">
      <span class="text-base-content/60" safe>{t("共 {{total}} 条", { total })}</span>
      <div class="flex items-center gap-2">
        <div class="join">
          {visible.map((number) => (
            <button
              type="button"
              class={`join-item btn btn-sm ${number === page ? "btn-active" : ""}`}
              hx-get={linkTo(url, number, pageSize)}
              hx-target={`#${target}`}
              hx-swap="outerHTML"
              hx-push-url="true"
              aria-current={number === page ? "page" : undefined}
              safe
            >
              {String(number)}
            </button>
          ))}
        </div>
        <select
          class="select select-bordered select-sm w-28"
          name="page_size"
          aria-label={t("每页条数")}
          data-page-size
          hx-get={linkTo(url, 1)}
          hx-target={`#${target}`}
          hx-swap="outerHTML"
          hx-push-url="true"
          hx-include="this"
        >
          {[10, 20, 50, 100].map((size) => (
            <option value={String(size)} selected={size === pageSize} safe>
              {t("{{size}} 条/页", { size })}
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
