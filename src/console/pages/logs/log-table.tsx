// The log list region of /log: admins get channel, user and address columns and the retry chain;
// every row expands to the details of its `other` JSON; error entries (type 5) show the status the
// client received. Columns a browser hid (the column chooser) are left out. Also the lazily loaded
// summary chips.
import { DataTable, pagerIdOf, type Column } from "../../components/data-table.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { formatCount, formatQuotaDisplay } from "../../format.ts";
import { pagingOf } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { LogType } from "../../../services/logs/log-types.ts";
import {
  countLogs,
  knownTotal,
  logStat,
  queryLogPage,
  toLogView,
  type LogFilter,
  type LogView,
} from "../../../services/logs/log-queries.ts";
import { ErrorStatus, LogDetails, parseOther, TimeBadges } from "./log-details.tsx";
import { type ChoosableColumn, hiddenColumns, visibleColumns } from "../../components/column-chooser.tsx";
import { LocalTime } from "../../components/local-time.tsx";

export const logTableId = "log-table";
export const logStatId = "log-stat";
export const logPagerId = pagerIdOf(logTableId);

const typeLabels: Record<number, [string, string]> = {
  [LogType.topUp]: ["充值", "badge-info"],
  [LogType.consume]: ["消费", "badge-success"],
  [LogType.manage]: ["管理", "badge-warning"],
  [LogType.system]: ["系统", "badge-secondary"],
  [LogType.error]: ["错误", "badge-error"],
};

/** A log table column and the /api/log fields it becomes in the CSV export, in order (a field
 * without its own header takes the column's). The export follows this list, so the two cannot drift. */
type LogColumn = Column<LogView> & { csv?: { field: keyof LogView; header?: string }[] };

export function logTypeOptions(): [number, string][] {
  return [
    [0, "全部"],
    [LogType.topUp, "充值"],
    [LogType.consume, "消费"],
    [LogType.manage, "管理"],
    [LogType.system, "系统"],
    [LogType.error, "错误"],
  ];
}

function columns(context: PageContext, admin: boolean): LogColumn[] {
  const { t, status } = context;
  const consumption = (entry: LogView) => entry.type === LogType.consume || entry.type === LogType.unknown;
  const all: (LogColumn | false)[] = [
    {
      key: "time",
      header: t("时间"),
      csv: [{ field: "created_at" }],
      cell: (entry) => (
        <span class="whitespace-nowrap">
          <LocalTime seconds={entry.created_at} zone={context.timeZone} />
        </span>
      ),
    },
    admin && {
      key: "channel",
      header: t("渠道"),
      csv: [{ field: "channel" }],
      cell: (entry) =>
        entry.channel ? (
          <span class="badge badge-sm badge-outline" title={entry.channel_name} safe>
            {String(entry.channel)}
          </span>
        ) : (
          ""
        ),
    },
    admin && {
      key: "user",
      header: t("用户"),
      csv: [{ field: "username" }],
      cell: (entry) =>
        entry.user_id ? (
          <button type="button" class="link" hx-get={`/log?user_info=${entry.user_id}`} hx-target="#log-user-slot" hx-swap="innerHTML" safe>
            {entry.username}
          </button>
        ) : (
          // A refused call that named no user (a missing or unknown token).
          <span class="text-base-content/60 text-xs" safe>
            {t("未知")}
          </span>
        ),
    },
    { key: "token", header: t("令牌"), csv: [{ field: "token_name" }], cell: (entry) => <span safe>{entry.token_name}</span> },
    { key: "group", header: t("分组"), csv: [{ field: "group" }], cell: (entry) => <span safe>{entry.group}</span> },
    {
      key: "type",
      header: t("类型"),
      csv: [{ field: "type" }],
      cell: (entry) => {
        const [label, style] = typeLabels[entry.type] ?? ["未知", "badge-ghost"];
        return (
          <span class={`badge badge-sm whitespace-nowrap ${style}`} safe>
            {t(label)}
          </span>
        );
      },
    },
    {
      key: "model",
      header: t("模型"),
      csv: [{ field: "model_name" }],
      cell: (entry) => (
        <span class="whitespace-nowrap" safe>
          {entry.model_name}
        </span>
      ),
    },
    {
      key: "use_time",
      header: t("用时"),
      // The time badges also say whether the call streamed; the CSV gives that its own column.
      csv: [{ field: "use_time" }, { field: "is_stream", header: t("流") }],
      cell: (entry) =>
        consumption(entry) ? (
          <TimeBadges t={t} entry={entry} other={parseOther(entry.other)} />
        ) : entry.type === LogType.error ? (
          <ErrorStatus t={t} other={parseOther(entry.other)} />
        ) : (
          ""
        ),
    },
    {
      key: "prompt",
      header: t("提示"),
      csv: [{ field: "prompt_tokens" }],
      cell: (entry) => (consumption(entry) ? <span safe>{String(entry.prompt_tokens)}</span> : ""),
    },
    {
      key: "completion",
      header: t("补全"),
      csv: [{ field: "completion_tokens" }],
      cell: (entry) => (consumption(entry) ? <span safe>{String(entry.completion_tokens)}</span> : ""),
    },
    {
      key: "quota",
      header: t("花费"),
      csv: [{ field: "quota" }],
      cell: (entry) => (
        <span class="whitespace-nowrap" safe>
          {formatQuotaDisplay(entry.quota, status, 6)}
        </span>
      ),
    },
    admin && {
      key: "ip",
      header: t("IP 地址"),
      csv: [{ field: "ip" }],
      cell: (entry) => (
        <span class="font-mono text-xs whitespace-nowrap" safe>
          {entry.ip}
        </span>
      ),
    },
    {
      key: "details",
      header: t("详情"),
      csv: [{ field: "content" }],
      cell: (entry) => <LogDetails t={t} entry={entry} other={parseOther(entry.other)} admin={admin} status={status} />,
    },
  ];
  return all.filter((column): column is LogColumn => column !== false);
}

/**
 * The CSV export's column titles in the page's language, keyed by the /api/log field each takes,
 * in the table's order; then the type names ("type:N") the export writes instead of numbers.
 */
export function logExportLabels(context: PageContext, admin: boolean): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const column of columns(context, admin)) for (const { field, header } of column.csv ?? []) labels[field] = header ?? column.header;
  for (const [type, [label]] of Object.entries(typeLabels)) labels[`type:${type}`] = context.t(label);
  return labels;
}

/** The columns a browser may hide from the log table, in their order (the chooser's menu). */
export function logColumnChoices(context: PageContext, admin: boolean): ChoosableColumn[] {
  return columns(context, admin).map((column) => ({ key: column.key!, label: column.header }));
}

export async function LogTable(props: { context: PageContext; filter: LogFilter; admin: boolean }): Promise<JSX.Element> {
  const { context, filter, admin } = props;
  const paging = pagingOf(context);
  const items = await queryLogPage(filter, paging);
  // A page that is not full tells the total; otherwise the pager is counted after the rows show.
  const total = knownTotal(items.length, paging);
  return (
    <DataTable
      id={logTableId}
      t={context.t}
      url={context.url}
      columns={visibleColumns(columns(context, admin), hiddenColumns(context, logTableId))}
      rows={items.map((row) => toLogView(row, admin))}
      emptyText={context.t("暂无日志")}
      paging={{ ...paging, total }}
    />
  );
}

/** The pager of the log table, counted on its own request (see countLogs). */
export async function LogPager(props: { context: PageContext; filter: LogFilter }): Promise<JSX.Element> {
  const { context } = props;
  const paging = pagingOf(context);
  const total = await countLogs(props.filter);
  return (
    <Pagination
      id={logPagerId}
      t={context.t}
      url={context.url}
      target={logTableId}
      page={paging.page}
      pageSize={paging.pageSize}
      total={total}
    />
  );
}

/** Placeholder that asks for the chips once the page is shown (the sums are the slow part). */
export function LogStatPlaceholder(props: { context: PageContext }) {
  const { url } = props.context;
  return <div id={logStatId} class="min-h-8" hx-get={`${url.pathname}${url.search}`} hx-trigger="load" hx-swap="outerHTML"></div>;
}

export async function LogStatChips(props: { context: PageContext; filter: LogFilter }): Promise<JSX.Element> {
  const { t, status } = props.context;
  const stat = await logStat(props.filter);
  const chips: [string, string][] = [
    [t("消耗额度"), formatQuotaDisplay(stat.quota, status)],
    ["RPM", formatCount(stat.rpm)],
    ["TPM", formatCount(stat.tpm)],
  ];
  return (
    <div id={logStatId} class="flex flex-wrap gap-2">
      {chips.map(([label, value]) => (
        <span class="badge badge-lg badge-outline gap-2">
          <span class="text-base-content/60" safe>
            {label}
          </span>
          <span class="font-semibold" safe>
            {value}
          </span>
        </span>
      ))}
    </div>
  );
}
