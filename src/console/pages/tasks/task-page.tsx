// "/task": asynchronous tasks (spec §2 async task list with a detail dialog): Suno songs and
// lyrics today. Filters default to the start of today up to an hour ahead (§9); admins see every
// user's tasks and filter by channel. The detail dialog plays a song's clips or shows its lyrics.
import { nowSeconds } from "../../../clock.ts";
import { findAsyncTaskById, listAsyncTasks, type AsyncTaskRow } from "../../../services/tasks/async-task-store.ts";
import { asyncTaskFilterFromQuery } from "../../../services/tasks/task-filters.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { Modal } from "../../components/modal.tsx";
import { formatQuotaDisplay, formatUnixTime } from "../../format.ts";
import { fragmentResponse, fragmentTarget, pagingOf } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { DetailRow, DurationBadge, refundedNote, webAddress, ProgressCell, queryWithDefaults, StatusBadge, TaskFilters, type Badge } from "./task-parts.tsx";

const tableId = "task-table";
const detailSlot = "task-detail-slot";

const taskActions: Record<string, string> = { MUSIC: "生成音乐", LYRICS: "生成歌词" };

const taskStatuses: Record<string, Badge> = {
  SUCCESS: { label: "成功", class: "badge-success" },
  NOT_START: { label: "未启动", class: "badge-ghost" },
  SUBMITTED: { label: "队列中", class: "badge-info" },
  IN_PROGRESS: { label: "执行中", class: "badge-primary" },
  FAILURE: { label: "失败", class: "badge-error" },
  QUEUED: { label: "排队中", class: "badge-info" },
  UNKNOWN: { label: "未知", class: "badge-ghost" },
  "": { label: "提交中", class: "badge-ghost" },
};

const platforms: Record<string, string> = { suno: "Suno" };

function startOfToday(): number {
  const date = new Date(nowSeconds() * 1000);
  date.setHours(0, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

const tookSeconds = (row: AsyncTaskRow) => (row.submit_time ? (row.finish_time || nowSeconds()) - row.submit_time : -1);

function DetailButton(props: { row: AsyncTaskRow; label: string }) {
  return (
    <button type="button" class="btn btn-ghost btn-xs" hx-get={`/task?detail=${props.row.id}`} hx-target={`#${detailSlot}`} hx-swap="innerHTML" safe>
      {props.label}
    </button>
  );
}

function columns(context: PageContext, admin: boolean): Column<AsyncTaskRow>[] {
  const { t } = context;
  const all: (Column<AsyncTaskRow> | false)[] = [
    { header: t("提交时间"), cell: (row) => <span class="whitespace-nowrap" safe>{formatUnixTime(row.submit_time)}</span> },
    { header: t("完成时间"), cell: (row) => <span class="whitespace-nowrap" safe>{formatUnixTime(row.finish_time)}</span> },
    { header: t("进度"), cell: (row) => <ProgressCell progress={row.progress} /> },
    { header: t("花费时间"), cell: (row) => <DurationBadge t={t} seconds={tookSeconds(row)} /> },
    admin && { header: t("渠道"), cell: (row) => <span class="badge badge-sm badge-outline" safe>{String(row.channel_id)}</span> },
    admin && { header: t("用户"), cell: (row) => <span safe>{String(row.user_id)}</span> },
    { header: t("平台"), cell: (row) => <span safe>{platforms[row.platform] ?? row.platform}</span> },
    { header: t("类型"), cell: (row) => <span class="whitespace-nowrap" safe>{t(taskActions[row.action] ?? "未知")}</span> },
    { header: t("任务 ID"), cell: (row) => <span class="font-mono text-xs" safe>{row.task_id}</span> },
    { header: t("任务状态"), cell: (row) => <StatusBadge t={t} status={row.status} badges={taskStatuses} /> },
    { header: t("失败原因"), cell: (row) => <span class="line-clamp-2 max-w-xs text-error" title={row.fail_reason} safe>{row.fail_reason}</span> },
    { header: t("详情"), cell: (row) => <DetailButton row={row} label={t("详情")} /> },
  ];
  return all.filter((column): column is Column<AsyncTaskRow> => column !== false);
}

async function AsyncTaskTable(props: { context: PageContext; query: Record<string, string> }) {
  const { context, query } = props;
  const admin = isAdmin(context.user!.role);
  const paging = pagingOf(context);
  const filter = asyncTaskFilterFromQuery(query, { userId: context.user!.id, admin });
  const { items, total } = await listAsyncTasks(filter, { offset: (paging.page - 1) * paging.pageSize, limit: paging.pageSize });
  return <DataTable id={tableId} t={context.t} url={context.url} columns={columns(context, admin)} rows={items} emptyText={context.t("暂无任务")} paging={{ ...paging, total }} />;
}

type Clip = { id?: unknown; title?: unknown; audio_url?: unknown; text?: unknown };

function parsedData(data: string): Clip[] {
  try {
    const parsed = JSON.parse(data) as unknown;
    if (Array.isArray(parsed)) return parsed.filter((item): item is Clip => Boolean(item) && typeof item === "object");
    return parsed && typeof parsed === "object" ? [parsed as Clip] : [];
  } catch {
    return [];
  }
}

const text = (value: unknown): string => (typeof value === "string" ? value : "");

function Results(props: { context: PageContext; row: AsyncTaskRow }) {
  const { t } = props.context;
  const clips = parsedData(props.row.data);
  if (clips.length === 0) return "";
  return (
    <div class="mt-2 flex flex-col gap-3">
      {clips.map((clip) => (
        <div class="rounded-box bg-base-200 p-3">
          <div class="mb-1 font-semibold" safe>{text(clip.title) || text(clip.id)}</div>
          {webAddress(clip.audio_url) ? <audio controls="" preload="none" src={webAddress(clip.audio_url)} class="w-full" aria-label={t("播放 {{title}}", { title: text(clip.title) })}></audio> : ""}
          {text(clip.text) ? <pre class="whitespace-pre-wrap text-sm" safe>{text(clip.text)}</pre> : ""}
        </div>
      ))}
    </div>
  );
}

async function AsyncTaskDetail(props: { context: PageContext; id: number }) {
  const { context } = props;
  const { t } = context;
  const row = await findAsyncTaskById(props.id);
  if (!row || (!isAdmin(context.user!.role) && row.user_id !== context.user!.id)) return <p class="text-error" safe>{t("任务不存在")}</p>;
  return (
    <Modal id="task-detail" t={t} title={t("任务详情")} open>
      <div class="flex flex-col gap-1">
        <DetailRow label={t("任务 ID")}><span class="font-mono" safe>{row.task_id}</span></DetailRow>
        <DetailRow label={t("平台")}><span safe>{platforms[row.platform] ?? row.platform}</span></DetailRow>
        <DetailRow label={t("类型")}><span safe>{t(taskActions[row.action] ?? "未知")}</span></DetailRow>
        <DetailRow label={t("任务状态")}><StatusBadge t={t} status={row.status} badges={taskStatuses} /></DetailRow>
        <DetailRow label={t("进度")}><ProgressCell progress={row.progress} /></DetailRow>
        <DetailRow label={t("提交时间")}><span safe>{formatUnixTime(row.submit_time)}</span></DetailRow>
        <DetailRow label={t("完成时间")}><span safe>{formatUnixTime(row.finish_time)}</span></DetailRow>
        <DetailRow label={t("花费")}><span safe>{formatQuotaDisplay(row.quota, context.status, 6) + (row.refunded ? refundedNote(t) : "")}</span></DetailRow>
        {row.fail_reason ? <DetailRow label={t("失败原因")}><span class="text-error" safe>{row.fail_reason}</span></DetailRow> : ""}
        <Results context={context} row={row} />
      </div>
    </Modal>
  );
}

export async function taskPage(context: PageContext): Promise<Response> {
  const { t } = context;
  const query = queryWithDefaults(context, { start: startOfToday(), end: nowSeconds() + 3600 });
  const target = fragmentTarget(context.request);
  if (target === detailSlot) return fragmentResponse(context, await AsyncTaskDetail({ context, id: Number(context.url.searchParams.get("detail")) }));
  if (target === tableId) return fragmentResponse(context, await AsyncTaskTable({ context, query }));
  // Rendered by our own component, which escapes what it shows.
  const safeTable = await AsyncTaskTable({ context, query });
  return renderPage(
    context,
    { title: t("异步任务"), htmx: true, mediaSources: ["https:", "http:"] },
    <div class="flex flex-col gap-4">
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body gap-3 p-4">
          <h1 class="card-title" safe>{t("异步任务")}</h1>
          <TaskFilters context={context} path="/task" target={tableId} idField="task_id" query={query} />
          {safeTable}
        </div>
      </div>
      <div id={detailSlot}></div>
    </div>,
  );
}
