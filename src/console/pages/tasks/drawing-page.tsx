// "/midjourney": drawing tasks (a list with a detail dialog and image preview), on
// the task list page (task-list-page.tsx). Filters default to the last 30 days up to an hour ahead;
// the banner says when the drawing callback is off.
import { drawings, type DrawingRow } from "../../../services/tasks/drawing-tasks.ts";
import { drawingImageUrl } from "../../../services/tasks/task-views.ts";
import type { Column } from "../../components/data-table.tsx";
import { Modal } from "../../components/modal.tsx";
import { UserNameCell } from "../../components/user-name-cell.tsx";
import { formatQuotaDisplay } from "../../format.ts";
import type { PageContext } from "../../page-context.ts";
import { taskListPage } from "./task-list-page.tsx";
import {
  DetailRow,
  DurationBadge,
  refundedNote,
  webAddress,
  MillisecondsTime,
  ProgressCell,
  StatusBadge,
  type Badge,
} from "./task-parts.tsx";

const drawingActions: Record<string, string> = {
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

// The submit codes (docs/COMPATIBILITY.md, Tasks), as the console names them; 22 is named as midjourney-proxy's API
// reference defines it (queued: accepted and charged), not "duplicate".
const submitCodes: Record<string, Badge> = {
  "1": { label: "已提交", class: "badge-success" },
  "21": { label: "等待中", class: "badge-info" },
  "22": { label: "排队中", class: "badge-info" },
  "0": { label: "未提交", class: "badge-ghost" },
};

/** Seconds the task took: to its end, or so far. */
const tookSeconds = (row: DrawingRow) => ((row.finish_time || Date.now()) - row.submit_time) / 1000;

function columns(
  context: PageContext,
  admin: boolean,
  detailButton: (row: DrawingRow, label: string) => JSX.Element,
  names: Map<number, string>,
): Column<DrawingRow>[] {
  const { t } = context;
  const all: (Column<DrawingRow> | false)[] = [
    {
      header: t("提交时间"),
      cell: (row) => (
        <span class="whitespace-nowrap">
          <MillisecondsTime ms={row.submit_time} zone={context.timeZone} />
        </span>
      ),
    },
    { header: t("花费时间"), cell: (row) => <DurationBadge t={t} seconds={tookSeconds(row)} redAbove={60} /> },
    admin && {
      header: t("渠道"),
      cell: (row) => (
        <span class="badge badge-sm badge-outline" safe>
          {String(row.channel_id)}
        </span>
      ),
    },
    admin && { header: t("用户"), cell: (row) => <UserNameCell id={row.user_id} names={names} /> },
    {
      header: t("类型"),
      cell: (row) => (
        <span class="whitespace-nowrap" safe>
          {t(drawingActions[row.action] ?? "未知")}
        </span>
      ),
    },
    {
      header: t("任务 ID"),
      cell: (row) => (
        <span class="font-mono text-xs" safe>
          {row.mj_id || "-"}
        </span>
      ),
    },
    { header: t("提交结果"), cell: (row) => <StatusBadge t={t} status={String(row.code)} badges={submitCodes} /> },
    { header: t("任务状态"), cell: (row) => <StatusBadge t={t} status={row.status} badges={drawingStatuses} /> },
    { header: t("进度"), cell: (row) => <ProgressCell progress={row.progress} /> },
    {
      header: t("结果图片"),
      cell: (row) =>
        row.image_url ? (
          detailButton(row, t("查看图片"))
        ) : (
          <span class="text-base-content/50" safe>
            {t("无")}
          </span>
        ),
    },
    {
      header: "Prompt",
      cell: (row) => (
        <span class="line-clamp-2 max-w-xs" title={row.prompt} safe>
          {row.prompt}
        </span>
      ),
    },
    {
      header: t("失败原因"),
      cell: (row) => (
        <span class="line-clamp-2 max-w-xs text-error" title={row.fail_reason} safe>
          {row.fail_reason}
        </span>
      ),
    },
    { header: t("详情"), cell: (row) => detailButton(row, t("详情")) },
  ];
  return all.filter((column): column is Column<DrawingRow> => column !== false);
}

function DrawingDetail(props: { context: PageContext; row: DrawingRow }) {
  const { context, row } = props;
  const { t } = context;
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
        <DetailRow label={t("任务 ID")}>
          <span class="font-mono" safe>
            {row.mj_id || "-"}
          </span>
        </DetailRow>
        <DetailRow label={t("类型")}>
          <span safe>{t(drawingActions[row.action] ?? "未知")}</span>
        </DetailRow>
        <DetailRow label={t("任务状态")}>
          <StatusBadge t={t} status={row.status} badges={drawingStatuses} />
        </DetailRow>
        <DetailRow label={t("进度")}>
          <ProgressCell progress={row.progress} />
        </DetailRow>
        <DetailRow label={t("提交时间")}>
          <MillisecondsTime ms={row.submit_time} zone={context.timeZone} />
        </DetailRow>
        <DetailRow label={t("完成时间")}>
          <MillisecondsTime ms={row.finish_time} zone={context.timeZone} />
        </DetailRow>
        <DetailRow label={t("花费")}>
          <span safe>{formatQuotaDisplay(row.quota, context.status, 6) + (row.refunded ? refundedNote(t) : "")}</span>
        </DetailRow>
        <DetailRow label="Prompt">
          <span class="whitespace-pre-wrap" safe>
            {row.prompt}
          </span>
        </DetailRow>
        <DetailRow label="PromptEn">
          <span class="whitespace-pre-wrap" safe>
            {row.prompt_en}
          </span>
        </DetailRow>
        {row.fail_reason ? (
          <DetailRow label={t("失败原因")}>
            <span class="text-error" safe>
              {row.fail_reason}
            </span>
          </DetailRow>
        ) : (
          ""
        )}
      </div>
    </Modal>
  );
}

export const drawingPage = taskListPage<DrawingRow>({
  kind: "drawing",
  path: "/midjourney",
  tableId: "mj-table",
  detailSlot: "mj-detail-slot",
  title: "绘图",
  emptyText: "暂无绘图任务",
  tasks: drawings,
  columns,
  detail: (context, row) => <DrawingDetail context={context} row={row} />,
  banner: (context) =>
    context.status.mj_notify_enabled ? (
      ""
    ) : (
      <div role="alert" class="alert alert-info">
        <span safe>{context.t("当前未开启Midjourney回调，部分项目可能无法获得绘图结果，可在运营设置中开启。")}</span>
      </div>
    ),
});
