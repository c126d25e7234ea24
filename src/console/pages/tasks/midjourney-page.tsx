// "/midjourney": drawing tasks (spec §2 Drawing list with a detail dialog and image preview).
// Filters default to the last 30 days up to an hour ahead (§9); admins see every user's tasks and
// filter by channel. The banner says when the drawing callback is off.
import { nowSeconds } from "../../../clock.ts";
import { findDrawingById, listDrawings, type DrawingRow } from "../../../services/tasks/drawing-store.ts";
import { drawingFilterFromQuery } from "../../../services/tasks/task-filters.ts";
import { drawingImageUrl } from "../../../services/tasks/task-views.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { Modal } from "../../components/modal.tsx";
import { formatQuotaDisplay } from "../../format.ts";
import { fragmentResponse, fragmentTarget, pagingOf } from "../../fragment.ts";
import type { PageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { DetailRow, DurationBadge, refundedNote, webAddress, millisecondsToText, ProgressCell, queryWithDefaults, StatusBadge, TaskFilters, type Badge } from "./task-parts.tsx";

const tableId = "mj-table";
const detailSlot = "mj-detail-slot";

export const drawingActions: Record<string, string> = {
  IMAGINE: "绘图",
  UPSCALE: "放大",
  VARIATION: "变换",
  HIGH_VARIATION: "强变换",
  LOW_VARIATION: "弱变换",
  PAN: "平移",
  DESCRIBE: "图生文",
  BLEND: "图混合",
  UPLOAD: "上传文件",
  SHORTEN: "缩词",
  REROLL: "重绘",
  INPAINT: "局部重绘",
  ZOOM: "变焦",
  CUSTOM_ZOOM: "自定义变焦",
  MODAL: "窗口处理",
  SWAP_FACE: "换脸",
};

const drawingStatuses: Record<string, Badge> = {
  SUCCESS: { label: "成功", class: "badge-success" },
  NOT_START: { label: "未启动", class: "badge-ghost" },
  SUBMITTED: { label: "队列中", class: "badge-info" },
  IN_PROGRESS: { label: "执行中", class: "badge-primary" },
  FAILURE: { label: "失败", class: "badge-error" },
  MODAL: { label: "窗口等待", class: "badge-warning" },
};

// Spec §4's submit codes, as the console names them; 22 is named as midjourney-proxy's API
// reference defines it (queued: accepted and charged), not "duplicate".
const submitCodes: Record<string, Badge> = {
  "1": { label: "已提交", class: "badge-success" },
  "21": { label: "等待中", class: "badge-info" },
  "22": { label: "排队中", class: "badge-info" },
  "0": { label: "未提交", class: "badge-ghost" },
};

/** Seconds the task took: to its end, or so far. */
const tookSeconds = (row: DrawingRow) => ((row.finish_time || Date.now()) - row.submit_time) / 1000;

function DetailButton(props: { context: PageContext; row: DrawingRow; label: string }) {
  return (
    <button type="button" class="btn btn-ghost btn-xs" hx-get={`/midjourney?detail=${props.row.id}`} hx-target={`#${detailSlot}`} hx-swap="innerHTML" safe>
      {props.label}
    </button>
  );
}

function columns(context: PageContext, admin: boolean): Column<DrawingRow>[] {
  const { t } = context;
  const all: (Column<DrawingRow> | false)[] = [
    { header: t("提交时间"), cell: (row) => <span class="whitespace-nowrap" safe>{millisecondsToText(row.submit_time)}</span> },
    { header: t("花费时间"), cell: (row) => <DurationBadge t={t} seconds={tookSeconds(row)} redAbove={60} /> },
    admin && { header: t("渠道"), cell: (row) => <span class="badge badge-sm badge-outline" safe>{String(row.channel_id)}</span> },
    admin && { header: t("用户"), cell: (row) => <span safe>{String(row.user_id)}</span> },
    { header: t("类型"), cell: (row) => <span class="whitespace-nowrap" safe>{t(drawingActions[row.action] ?? "未知")}</span> },
    { header: t("任务 ID"), cell: (row) => <span class="font-mono text-xs" safe>{row.mj_id || "-"}</span> },
    { header: t("提交结果"), cell: (row) => <StatusBadge t={t} status={String(row.code)} badges={submitCodes} /> },
    { header: t("任务状态"), cell: (row) => <StatusBadge t={t} status={row.status} badges={drawingStatuses} /> },
    { header: t("进度"), cell: (row) => <ProgressCell progress={row.progress} /> },
    {
      header: t("结果图片"),
      cell: (row) => (row.image_url ? <DetailButton context={context} row={row} label={t("查看图片")} /> : <span class="text-base-content/50" safe>{t("无")}</span>),
    },
    { header: "Prompt", cell: (row) => <span class="line-clamp-2 max-w-xs" title={row.prompt} safe>{row.prompt}</span> },
    { header: t("失败原因"), cell: (row) => <span class="line-clamp-2 max-w-xs text-error" title={row.fail_reason} safe>{row.fail_reason}</span> },
    { header: t("详情"), cell: (row) => <DetailButton context={context} row={row} label={t("详情")} /> },
  ];
  return all.filter((column): column is Column<DrawingRow> => column !== false);
}

async function DrawingTable(props: { context: PageContext; query: Record<string, string> }) {
  const { context, query } = props;
  const admin = isAdmin(context.user!.role);
  const paging = pagingOf(context);
  const filter = drawingFilterFromQuery(query, { userId: context.user!.id, admin });
  const { items, total } = await listDrawings(filter, { offset: (paging.page - 1) * paging.pageSize, limit: paging.pageSize });
  return (
    <DataTable id={tableId} t={context.t} url={context.url} columns={columns(context, admin)} rows={items} emptyText={context.t("暂无绘图任务")} paging={{ ...paging, total }} />
  );
}

async function DrawingDetail(props: { context: PageContext; id: number }) {
  const { context } = props;
  const { t } = context;
  const row = await findDrawingById(props.id);
  // Users open only their own tasks; anything else reads as missing.
  if (!row || (!isAdmin(context.user!.role) && row.user_id !== context.user!.id)) return <p class="text-error" safe>{t("任务不存在")}</p>;
  const image = webAddress(drawingImageUrl(row));
  return (
    <Modal id="mj-detail" t={t} title={t("绘图任务详情")} open>
      <div class="flex flex-col gap-1">
        {image ? (
          <a href={image} target="_blank" rel="noopener noreferrer" class="mb-2 block">
            <img src={image} alt={t("结果图片")} class="max-h-96 w-full rounded-box bg-base-200 object-contain" />
          </a>
        ) : (
          ""
        )}
        <DetailRow label={t("任务 ID")}><span class="font-mono" safe>{row.mj_id || "-"}</span></DetailRow>
        <DetailRow label={t("类型")}><span safe>{t(drawingActions[row.action] ?? "未知")}</span></DetailRow>
        <DetailRow label={t("任务状态")}><StatusBadge t={t} status={row.status} badges={drawingStatuses} /></DetailRow>
        <DetailRow label={t("进度")}><ProgressCell progress={row.progress} /></DetailRow>
        <DetailRow label={t("提交时间")}><span safe>{millisecondsToText(row.submit_time)}</span></DetailRow>
        <DetailRow label={t("完成时间")}><span safe>{millisecondsToText(row.finish_time)}</span></DetailRow>
        <DetailRow label={t("花费")}><span safe>{formatQuotaDisplay(row.quota, context.status, 6) + (row.refunded ? refundedNote(t) : "")}</span></DetailRow>
        <DetailRow label="Prompt"><span class="whitespace-pre-wrap" safe>{row.prompt}</span></DetailRow>
        <DetailRow label="PromptEn"><span class="whitespace-pre-wrap" safe>{row.prompt_en}</span></DetailRow>
        {row.fail_reason ? <DetailRow label={t("失败原因")}><span class="text-error" safe>{row.fail_reason}</span></DetailRow> : ""}
      </div>
    </Modal>
  );
}

export async function midjourneyPage(context: PageContext): Promise<Response> {
  const { t } = context;
  const now = nowSeconds();
  const query = queryWithDefaults(context, { start: now - 30 * 86_400, end: now + 3600 });
  const target = fragmentTarget(context.request);
  if (target === detailSlot) return fragmentResponse(context, await DrawingDetail({ context, id: Number(context.url.searchParams.get("detail")) }));
  if (target === tableId) return fragmentResponse(context, await DrawingTable({ context, query }));
  // Rendered by our own component, which escapes what it shows.
  const safeTable = await DrawingTable({ context, query });
  return renderPage(
    context,
    { title: t("绘图"), htmx: true },
    <div class="flex flex-col gap-4">
      {context.status.mj_notify_enabled ? (
        ""
      ) : (
        <div role="alert" class="alert alert-info">
          <span safe>{t("当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。")}</span>
        </div>
      )}
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body gap-3 p-4">
          <h1 class="card-title" safe>{t("绘图")}</h1>
          <TaskFilters context={context} path="/midjourney" target={tableId} idField="mj_id" query={query} />
          {safeTable}
        </div>
      </div>
      <div id={detailSlot}></div>
    </div>,
  );
}
