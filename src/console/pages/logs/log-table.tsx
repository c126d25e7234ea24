// The log list region of /log: admins get channel and user columns and the retry chain; every
// row expands to the details of its `other` JSON. Also the lazily loaded summary chips.
import { DataTable, pagerIdOf, type Column } from "../../components/data-table.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { formatCount, formatQuotaDisplay, formatUnixTime } from "../../format.ts";
import { pagingOf } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { LogType } from "../../../services/logs/log-types.ts";
import { countLogs, knownTotal, logStat, queryLogPage, toLogView, type LogFilter, type LogView } from "../../../services/logs/log-queries.ts";
import { LogDetails, parseOther, TimeBadges } from "./log-details.tsx";

export const logTableId = "log-table";
export const logStatId = "log-stat";
export const logPagerId = pagerIdOf(logTableId);

const typeLabels: Record<number, [string, string]> = {
  [LogType.topUp]: ["充值", "badge-info"],
  [LogType.consume]: ["消费", "badge-success"],
  [LogType.manage]: ["管理", "badge-warning"],
  [LogType.system]: ["系统", "badge-secondary"],
};

export function logTypeOptions(): [number, string][] {
  return [[0, "全部"], [LogType.topUp, "充值"], [LogType.consume, "消费"], [LogType.manage, "管理"], [LogType.system, "系统"]];
}

function columns(context: PageContext, admin: boolean): Column<LogView>[] {
  const { t, status } = context;
  const consumption = (entry: LogView) => entry.type === LogType.consume || entry.type === LogType.unknown;
  const all: (Column<LogView> | false)[] = [
    { header: t("时间"), cell: (entry) => <span class="whitespace-nowrap" safe>{formatUnixTime(entry.created_at)}</span> },
    admin && {
      header: t("渠道"),
      cell: (entry) => (entry.channel ? <span class="badge badge-sm badge-outline" title={entry.channel_name} safe>{String(entry.channel)}</span> : ""),
    },
    admin && {
      header: t("用户"),
      cell: (entry) => (
        <button type="button" class="link" hx-get={`/log?user_info=${entry.user_id}`} hx-target="#log-user-slot" hx-swap="innerHTML" safe>
          {entry.username}
        </button>
      ),
    },
    { header: t("令牌"), cell: (entry) => <span safe>{entry.token_name}</span> },
    { header: t("分组"), cell: (entry) => <span safe>{entry.group}</span> },
    {
      header: t("类型"),
      cell: (entry) => {
        const [label, style] = typeLabels[entry.type] ?? ["未知", "badge-ghost"];
        return <span class={`badge badge-sm whitespace-nowrap ${style}`} safe>{t(label)}</span>;
      },
    },
    { header: t("模型"), cell: (entry) => <span class="whitespace-nowrap" safe>{entry.model_name}</span> },
    { header: t("用时"), cell: (entry) => (consumption(entry) ? <TimeBadges t={t} entry={entry} other={parseOther(entry.other)} /> : "") },
    { header: t("提示"), cell: (entry) => (consumption(entry) ? <span safe>{String(entry.prompt_tokens)}</span> : "") },
    { header: t("补全"), cell: (entry) => (consumption(entry) ? <span safe>{String(entry.completion_tokens)}</span> : "") },
    { header: t("花费"), cell: (entry) => <span class="whitespace-nowrap" safe>{formatQuotaDisplay(entry.quota, status, 6)}</span> },
    { header: t("详情"), cell: (entry) => <LogDetails t={t} entry={entry} other={parseOther(entry.other)} admin={admin} /> },
  ];
  return all.filter((column): column is Column<LogView> => column !== false);
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
      columns={columns(context, admin)}
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
  return <Pagination id={logPagerId} t={context.t} url={context.url} target={logTableId} page={paging.page} pageSize={paging.pageSize} total={total} />;
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
          <span class="text-base-content/60" safe>{label}</span>
          <span class="font-semibold" safe>{value}</span>
        </span>
      ))}
    </div>
  );
}
