// "/pricing" (visitors too): every priced model an enabled channel serves, its billing type and
// ratios, prices adjusted by the chosen group's ratio, per 1M tokens (or per call) in currency or
// quota as the site displays, and the groups that may use it. Search and filters swap
// the table through htmx.
import { matchesModelQuery } from "../../../islands/shared/model-search.ts";
import { pricingTable, type PricingRow } from "../../services/pricing/pricing-table.ts";
import { DataTable, type Column } from "../components/data-table.tsx";
import { fragmentResponse, fragmentTarget } from "../fragment.ts";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

const tableId = "pricing-table";

/** Group ratio colours (docs/COMPATIBILITY.md, Console conventions): above 5 red, above 3 orange, above 1 blue, else green. */
function groupRatioClass(ratio: number): string {
  if (ratio > 5) return "badge-error";
  if (ratio > 3) return "badge-warning";
  if (ratio > 1) return "badge-info";
  return "badge-success";
}

type Shown = PricingRow & { groups: string[] };

function trimNumber(value: number, digits: number): string {
  const text = value.toFixed(digits);
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/** Group-adjusted prices: per 1M tokens for ratio models (prompt = ratio x 2), per call for fixed ones. */
function prices(context: PageContext, row: PricingRow, groupRatio: number): string[] {
  const { t, status } = context;
  const currency = status.display_in_currency;
  if (row.quota_type === 1) {
    const perCall = row.model_price * groupRatio;
    return [
      currency
        ? t("{{price}} / 次", { price: `$${trimNumber(perCall, 6)}` })
        : t("{{price}} / 次", { price: `${Math.round(perCall * status.quota_per_unit)}` }),
    ];
  }
  const input = row.model_ratio * groupRatio;
  const output = row.model_ratio * row.completion_ratio * groupRatio;
  const format = (ratio: number) => (currency ? `$${trimNumber(ratio * 2, 6)}` : trimNumber(ratio * 1_000_000, 0));
  const lines = [t("输入 {{price}} / 1M tokens", { price: format(input) }), t("输出 {{price}} / 1M tokens", { price: format(output) })];
  for (const tier of row.tiers ?? []) {
    lines.push(
      t("提示超过 {{above}} tokens：输入 {{input}}，输出 {{output}}", {
        above: tier.above.toLocaleString("en-US"),
        input: format(tier.model_ratio * groupRatio),
        output: format(tier.model_ratio * tier.completion_ratio * groupRatio),
      }),
    );
  }
  return lines;
}

async function PricingTable(props: { context: PageContext; group: string }): Promise<JSX.Element> {
  const { context } = props;
  const { t, url } = context;
  const { data, group_ratio, usable_group } = await pricingTable(context.user?.group);
  const keyword = url.searchParams.get("keyword") ?? "";
  const type = url.searchParams.get("type") ?? "all";
  const groupRatio = group_ratio[props.group] ?? 1;
  const rows: Shown[] = data
    .filter((row) => matchesModelQuery(row.model_name, keyword))
    .filter((row) => type === "all" || (type === "price" ? row.quota_type === 1 : row.quota_type === 0))
    .filter((row) => props.group === "all" || row.enable_groups.includes(props.group))
    .map((row) => ({ ...row, groups: row.enable_groups.filter((group) => Object.hasOwn(usable_group, group)) }));
  const columns: Column<Shown>[] = [
    {
      header: t("模型名称"),
      cell: (row) => (
        <span class="font-mono text-sm" safe>
          {row.model_name}
        </span>
      ),
    },
    {
      header: t("计费类型"),
      cell: (row) => (
        <span class="badge badge-sm badge-outline whitespace-nowrap" safe>
          {row.quota_type === 1 ? t("按次计费") : t("按量计费")}
        </span>
      ),
    },
    {
      header: t("倍率"),
      cell: (row) =>
        row.quota_type === 1 ? (
          <span class="text-base-content/60" safe>
            {t("模型价格：{{price}}", { price: `$${row.model_price}` })}
          </span>
        ) : (
          <span class="flex flex-col text-xs whitespace-nowrap">
            <span safe>{t("模型倍率：{{ratio}}", { ratio: row.model_ratio })}</span>
            <span safe>{t("补全倍率：{{ratio}}", { ratio: trimNumber(row.completion_ratio, 4) })}</span>
          </span>
        ),
    },
    {
      header: t("价格"),
      cell: (row) => (
        <span class="flex flex-col text-xs whitespace-nowrap">
          {prices(context, row, groupRatio).map((line) => (
            <span safe>{line}</span>
          ))}
        </span>
      ),
    },
    {
      header: t("可用分组"),
      cell: (row) => (
        <span class="flex flex-wrap gap-1">
          {row.groups.length === 0
            ? "—"
            : row.groups.map((group) => (
                <span
                  class={`badge badge-sm ${groupRatioClass(group_ratio[group] ?? 1)}`}
                  title={t("分组倍率：{{ratio}}", { ratio: group_ratio[group] ?? 1 })}
                  safe
                >
                  {group}
                </span>
              ))}
        </span>
      ),
    },
  ];
  return <DataTable id={tableId} t={t} url={url} columns={columns} rows={rows} emptyText={t("暂无可用模型")} />;
}

export async function pricingPage(context: PageContext): Promise<Response> {
  const { t, url, user } = context;
  const { group_ratio } = await pricingTable(user?.group);
  const groups = Object.keys(group_ratio);
  const requested = url.searchParams.get("group");
  const group =
    requested === "all" || (requested && groups.includes(requested))
      ? requested
      : user && groups.includes(user.group)
        ? user.group
        : (groups[0] ?? "default");
  if (fragmentTarget(context.request) === tableId) return fragmentResponse(context, await PricingTable({ context, group }));
  // Rendered by our own component, which escapes what it shows.
  const safeTable = await PricingTable({ context, group });
  const type = url.searchParams.get("type") ?? "all";
  return renderPage(
    context,
    { title: t("定价"), htmx: true },
    <div class="flex flex-col gap-4">
      {user ? (
        ""
      ) : (
        <div role="alert" class="alert alert-info">
          <span safe>{t("您还未登陆，显示的价格为默认分组倍率")}</span>
        </div>
      )}
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body gap-3 p-4">
          <form
            class="flex flex-wrap items-end gap-2"
            hx-get="/pricing"
            hx-target={`#${tableId}`}
            hx-swap="outerHTML"
            hx-push-url="true"
            hx-trigger="submit, input delay:300ms"
          >
            <input
              name="keyword"
              class="input input-bordered input-sm w-56"
              value={url.searchParams.get("keyword") ?? ""}
              placeholder={t("搜索模型名称")}
              aria-label={t("模型名称")}
            />
            <select name="group" class="select select-bordered select-sm w-44" aria-label={t("分组")}>
              <option value="all" selected={group === "all"} safe>
                {t("全部分组")}
              </option>
              {groups.map((name) => (
                <option value={name} selected={group === name} safe>
                  {t("{{group}}（倍率 {{ratio}}）", { group: name, ratio: group_ratio[name] })}
                </option>
              ))}
            </select>
            <select name="type" class="select select-bordered select-sm w-36" aria-label={t("计费类型")}>
              <option value="all" selected={type === "all"} safe>
                {t("全部")}
              </option>
              <option value="ratio" selected={type === "ratio"} safe>
                {t("按量计费")}
              </option>
              <option value="price" selected={type === "price"} safe>
                {t("按次计费")}
              </option>
            </select>
            <button type="submit" class="btn btn-sm" safe>
              {t("搜索")}
            </button>
          </form>
          <p class="text-base-content/60 text-xs" safe>
            {t("价格已按所选分组的倍率计算；按量计费：输入价格 = 模型倍率 × 2 × 分组倍率（美元 / 1M tokens），输出价格再乘以补全倍率。")}
          </p>
          {safeTable}
        </div>
      </div>
    </div>,
  );
}
