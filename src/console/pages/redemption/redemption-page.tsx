// "/redemption" (admin): the redemption codes, listed and edited in a drawer. A search
// box and a paged table that htmx refreshes by itself; creating shows (and copies) the new codes;
// rows are copied one by one or by selection; editing opens a dialog swapped in by htmx.
import { listRedemptions, searchRedemptions, getRedemption, type RedemptionView } from "../../../services/redemptions/redemption-admin.ts";
import { usernamesByIds } from "../../../services/users/user-names.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { UserNameCell } from "../../components/user-name-cell.tsx";
import { formatQuotaDisplay } from "../../format.ts";
import { fragmentResponse, fragmentTarget, pagingOf } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { CreateRedemptionDialog, EditRedemptionDialog } from "./redemption-dialogs.tsx";
import { LocalTime } from "../../components/local-time.tsx";

const tableId = "redemption-table";
const dialogSlot = "redemption-dialog-slot";

const statusBadges: Record<number, { label: string; class: string }> = {
  1: { label: "未使用", class: "badge-success" },
  2: { label: "已禁用", class: "badge-warning" },
  3: { label: "已使用", class: "badge-ghost" },
};

function RowActions(props: { context: PageContext; row: RedemptionView }) {
  const { t } = props.context;
  const { row } = props;
  const used = row.status === 3;
  const next = row.status === 1 ? 2 : 1;
  return (
    <div class="flex flex-wrap gap-1">
      <button type="button" class="btn btn-ghost btn-xs" data-copy={row.key} safe>
        {t("复制")}
      </button>
      <button
        type="button"
        class="btn btn-ghost btn-xs"
        disabled={used}
        data-api-call="PUT /api/redemption/?status_only=true"
        data-body={JSON.stringify({ id: row.id, status: next })}
        data-success={`refresh:#${tableId}`}
        safe
      >
        {t(next === 2 ? "禁用" : "启用")}
      </button>
      <button
        type="button"
        class="btn btn-ghost btn-xs"
        disabled={row.status !== 1}
        hx-get={`/redemption?edit=${row.id}`}
        hx-target={`#${dialogSlot}`}
        safe
      >
        {t("编辑")}
      </button>
      <button
        type="button"
        class="btn btn-ghost btn-xs text-error"
        data-api-call={`DELETE /api/redemption/${row.id}/`}
        data-confirm={t("确定删除兑换码 {{name}} 吗？", { name: row.name })}
        data-success={`refresh:#${tableId}`}
        safe
      >
        {t("删除")}
      </button>
    </div>
  );
}

function columns(context: PageContext, names: Map<number, string>): Column<RedemptionView>[] {
  const { t, status } = context;
  return [
    {
      header: "",
      cell: (row) => (
        <input type="checkbox" class="checkbox checkbox-sm" data-row value={row.key} aria-label={t("选择 {{name}}", { name: row.name })} />
      ),
    },
    { header: "ID", cell: (row) => String(row.id) },
    { header: t("名称"), cell: (row) => <span safe>{row.name}</span> },
    {
      header: t("状态"),
      cell: (row) => {
        const badge = statusBadges[row.status] ?? { label: "未知状态", class: "badge-ghost" };
        return (
          <span class={`badge badge-sm ${badge.class}`} safe>
            {t(badge.label)}
          </span>
        );
      },
    },
    { header: t("额度"), cell: (row) => formatQuotaDisplay(row.quota, status) },
    { header: t("创建时间"), cell: (row) => <LocalTime seconds={row.created_time} zone={context.timeZone} /> },
    { header: t("兑换人"), cell: (row) => (row.used_user_id ? <UserNameCell id={row.used_user_id} names={names} /> : t("无")) },
    { header: t("操作"), cell: (row) => <RowActions context={context} row={row} />, card: "actions" },
  ];
}

async function RedemptionTable(props: { context: PageContext }) {
  const { context } = props;
  const keyword = context.url.searchParams.get("keyword") ?? "";
  const paging = pagingOf(context);
  const page = keyword ? await searchRedemptions(keyword, paging) : await listRedemptions(paging);
  const names = await usernamesByIds(page.items.flatMap((row) => (row.used_user_id ? [row.used_user_id] : [])));
  return (
    <DataTable
      id={tableId}
      t={context.t}
      url={context.url}
      columns={columns(context, names)}
      rows={page.items}
      rowClass={(row) => (row.status === 1 ? "" : "opacity-60")}
      emptyText={context.t("暂无兑换码")}
      paging={{ ...paging, total: page.total }}
    />
  );
}

export async function redemptionPage(context: PageContext): Promise<Response> {
  const { t } = context;
  const target = fragmentTarget(context.request);
  if (target === tableId) return fragmentResponse(context, await RedemptionTable({ context }));
  if (target === dialogSlot) {
    const row = await getRedemption(Number(context.url.searchParams.get("edit")));
    return fragmentResponse(context, <EditRedemptionDialog context={context} row={row} tableId={tableId} />);
  }
  const safeTable = await RedemptionTable({ context });
  return renderPage(
    context,
    { title: t("兑换码"), htmx: true },
    <div class="card bg-base-100 shadow-sm">
      <div class="card-body gap-4">
        <div class="flex flex-wrap items-center justify-between gap-2">
          <h1 class="card-title" safe>
            {t("兑换码")}
          </h1>
          <div class="flex flex-wrap gap-2">
            <button type="button" class="btn btn-primary btn-sm" data-open-dialog="#create-redemption" safe>
              {t("添加兑换码")}
            </button>
            <button
              type="button"
              class="btn btn-sm"
              data-copy-selected={`#${tableId} input[data-row]:checked`}
              data-empty-message={t("请至少选择一个兑换码！")}
              safe
            >
              {t("复制所选兑换码")}
            </button>
          </div>
        </div>
        <search>
          <form class="flex gap-2" hx-get="/redemption" hx-target={`#${tableId}`} hx-swap="outerHTML" hx-push-url="true">
            <input
              type="search"
              class="input input-bordered input-sm w-full max-w-xs"
              name="keyword"
              value={context.url.searchParams.get("keyword") ?? ""}
              placeholder={t("搜索兑换码的 ID 和名称 ...")}
              aria-label={t("搜索兑换码的 ID 和名称 ...")}
            />
            <button type="submit" class="btn btn-sm" safe>
              {t("查询")}
            </button>
          </form>
        </search>
        <div id="created-codes-panel" class="flex flex-col gap-2" hidden>
          <div role="status" class="alert alert-success">
            <span safe>{t("兑换码创建成功，已复制到剪贴板")}</span>
          </div>
          <textarea
            id="created-codes"
            class="textarea textarea-bordered w-full font-mono"
            rows="5"
            readonly
            aria-label={t("新兑换码")}
          ></textarea>
        </div>
        {safeTable}
      </div>
      <CreateRedemptionDialog context={context} tableId={tableId} />
      <div id={dialogSlot}></div>
    </div>,
  );
}
