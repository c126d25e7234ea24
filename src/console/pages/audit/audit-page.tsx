// "/audit" (admin): the audit trail (issue 27). Filters by actor, action and time, a paged table
// htmx swaps by itself, and CSV export of the filtered entries (islands/audit-export). Secrets
// never reach this page: the entries only ever say they changed (services/audit/audit-changes.ts).
import type { AuditChange } from "../../../services/audit/audit-changes.ts";
import { auditFilterFromQuery, queryAudit, type AuditView } from "../../../services/audit/audit-queries.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { formatUnixTime } from "../../format.ts";
import { fragmentResponse, fragmentTarget, pagingOf } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { auditExportIsland } from "../../../../islands/audit-export/audit-export.ts";
import { ScriptIsland } from "../../island.tsx";
import { renderPage } from "../../render-page.tsx";

const tableId = "audit-table";

const shown = (value: unknown) => (value === undefined ? "" : typeof value === "string" ? value : JSON.stringify(value));

/** One change as a line: "field: before → after", or "field: changed" for a secret. */
function changeText(change: AuditChange, changed: string): string {
  if ("changed" in change) return `${change.field}: ${changed}`;
  return `${change.field}: ${shown(change.before)} → ${shown(change.after)}`;
}

function columns(context: PageContext): Column<AuditView>[] {
  const { t } = context;
  return [
    { header: t("时间"), cell: (row) => formatUnixTime(row.created_at), class: "whitespace-nowrap" },
    { header: t("操作人"), cell: (row) => <span safe>{`${row.actor_name} #${row.actor_id}`}</span> },
    {
      header: t("IP 地址"),
      cell: (row) => (
        <span class="font-mono text-xs" safe>
          {row.address}
        </span>
      ),
    },
    {
      header: t("动作"),
      cell: (row) => (
        <span class="badge badge-sm badge-ghost font-mono" safe>
          {row.action}
        </span>
      ),
    },
    {
      header: t("对象"),
      cell: (row) => (
        <span class="break-all" safe>
          {`${row.target_type} ${row.target_id}`.trim()}
        </span>
      ),
    },
    {
      header: t("变更"),
      cell: (row) => (
        <ul class="text-xs break-all" data-audit-changes>
          {row.changes.map((change) => (
            <li safe>{changeText(change, t("已更改"))}</li>
          ))}
        </ul>
      ),
    },
  ];
}

async function AuditTable(props: { context: PageContext }) {
  const { context } = props;
  const paging = pagingOf(context);
  const filter = auditFilterFromQuery(Object.fromEntries(context.url.searchParams));
  const page = await queryAudit(filter, { ...paging, offset: (paging.page - 1) * paging.pageSize });
  return (
    <DataTable
      id={tableId}
      t={context.t}
      url={context.url}
      columns={columns(context)}
      rows={page.items}
      emptyText={context.t("暂无审计记录")}
      paging={{ ...paging, total: page.total }}
    />
  );
}

function Field(props: { name: string; label: string; value: string; epoch?: boolean; placeholder?: string }) {
  return (
    <label class="form-control w-full sm:w-44">
      <span class="label-text mb-1 block text-xs" safe>
        {props.label}
      </span>
      {/* A time field sends unix seconds (data-epoch) and shows the browser's local time of data-unix. */}
      <input
        name={props.name}
        class={`input input-bordered input-sm w-full ${props.epoch ? "font-mono" : ""}`}
        data-epoch={props.epoch || undefined}
        data-unix={props.epoch ? props.value : undefined}
        placeholder={props.epoch ? "yyyy-MM-dd HH:mm:ss" : props.placeholder}
        value={props.epoch ? undefined : props.value}
      />
    </label>
  );
}

/** Column titles of the CSV in the page's language, keyed by the field they take. */
function exportLabels(context: PageContext): Record<string, string> {
  const { t } = context;
  return {
    created_at: t("时间"),
    actor_id: t("操作人 ID"),
    actor_name: t("操作人"),
    address: t("IP 地址"),
    action: t("动作"),
    target_type: t("对象类型"),
    target_id: t("对象 ID"),
    changes: t("变更"),
    changed: t("已更改"),
  };
}

export async function auditPage(context: PageContext): Promise<Response> {
  const { t } = context;
  if (fragmentTarget(context.request) === tableId) return fragmentResponse(context, await AuditTable({ context }));
  const query = context.url.searchParams;
  const safeTable = await AuditTable({ context });
  return renderPage(
    context,
    { title: t("审计日志"), htmx: true },
    <div class="card bg-base-100 shadow-sm">
      <div class="card-body gap-4">
        <h1 class="card-title" safe>
          {t("审计日志")}
        </h1>
        <form
          id="audit-filters"
          class="flex flex-wrap items-end gap-2"
          hx-get="/audit"
          hx-target={`#${tableId}`}
          hx-swap="outerHTML"
          hx-push-url="true"
        >
          <Field name="actor" label={t("操作人")} value={query.get("actor") ?? ""} placeholder={t("用户名或 ID")} />
          <Field name="action" label={t("动作")} value={query.get("action") ?? ""} placeholder="channel / user.update" />
          <Field name="start_timestamp" label={t("起始时间")} value={query.get("start_timestamp") ?? ""} epoch />
          <Field name="end_timestamp" label={t("结束时间")} value={query.get("end_timestamp") ?? ""} epoch />
          <button type="submit" class="btn btn-primary btn-sm" safe>
            {t("查询")}
          </button>
          <ScriptIsland of={auditExportIsland} />
          <button
            type="button"
            class="btn btn-sm"
            data-audit-export="/api/audit/"
            data-labels={JSON.stringify(exportLabels(context))}
            data-empty-message={t("没有可导出的审计记录")}
            safe
          >
            {t("导出 CSV")}
          </button>
        </form>
        {safeTable}
      </div>
    </div>,
  );
}
