// "/task": music tasks, new-api's asynchronous tasks (a list with a detail dialog):
// Suno songs and lyrics, on the task list page (task-list-page.tsx). Filters default to the start
// of today up to an hour ahead. The detail dialog plays a song's clips or shows its lyrics.
import { nowSeconds } from "../../../clock.ts";
import { music, type MusicRow } from "../../../services/tasks/music-tasks.ts";
import type { Column } from "../../components/data-table.tsx";
import { Modal } from "../../components/modal.tsx";
import { UserNameCell } from "../../components/user-name-cell.tsx";
import { formatQuotaDisplay } from "../../format.ts";
import { LocalTime } from "../../components/local-time.tsx";
import type { PageContext } from "../../page-context.ts";
import { taskListPage } from "./task-list-page.tsx";
import { DetailRow, DurationBadge, refundedNote, webAddress, ProgressCell, StatusBadge, type Badge } from "./task-parts.tsx";

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

const tookSeconds = (row: MusicRow) => (row.submit_time ? (row.finish_time || nowSeconds()) - row.submit_time : -1);

function columns(
  context: PageContext,
  admin: boolean,
  detailButton: (row: MusicRow, label: string) => JSX.Element,
  names: Map<number, string>,
): Column<MusicRow>[] {
  const { t } = context;
  const all: (Column<MusicRow> | false)[] = [
    {
      header: t("提交时间"),
      cell: (row) => (
        <span class="whitespace-nowrap">
          <LocalTime seconds={row.submit_time} zone={context.timeZone} />
        </span>
      ),
    },
    {
      header: t("完成时间"),
      cell: (row) => (
        <span class="whitespace-nowrap">
          <LocalTime seconds={row.finish_time} zone={context.timeZone} />
        </span>
      ),
    },
    { header: t("进度"), cell: (row) => <ProgressCell progress={row.progress} /> },
    { header: t("花费时间"), cell: (row) => <DurationBadge t={t} seconds={tookSeconds(row)} /> },
    admin && {
      header: t("渠道"),
      cell: (row) => (
        <span class="badge badge-sm badge-outline" safe>
          {String(row.channel_id)}
        </span>
      ),
    },
    admin && { header: t("用户"), cell: (row) => <UserNameCell id={row.user_id} names={names} /> },
    { header: t("平台"), cell: (row) => <span safe>{platforms[row.platform] ?? row.platform}</span> },
    {
      header: t("类型"),
      cell: (row) => (
        <span class="whitespace-nowrap" safe>
          {t(taskActions[row.action] ?? "未知")}
        </span>
      ),
    },
    {
      header: t("任务 ID"),
      cell: (row) => (
        <span class="font-mono text-xs" safe>
          {row.task_id}
        </span>
      ),
    },
    { header: t("任务状态"), cell: (row) => <StatusBadge t={t} status={row.status} badges={taskStatuses} /> },
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
  return all.filter((column): column is Column<MusicRow> => column !== false);
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

function Results(props: { context: PageContext; row: MusicRow }) {
  const { t } = props.context;
  const clips = parsedData(props.row.data);
  if (clips.length === 0) return "";
  return (
    <div class="mt-2 flex flex-col gap-3">
      {clips.map((clip) => (
        <div class="rounded-box bg-base-200 p-3">
          <div class="mb-1 font-semibold" safe>
            {text(clip.title) || text(clip.id)}
          </div>
          {webAddress(clip.audio_url) ? (
            // biome-ignore lint/a11y/useMediaCaption: the provider gives no timed captions; the song's lyrics are shown as text below it
            <audio
              controls=""
              preload="none"
              src={webAddress(clip.audio_url)}
              class="w-full"
              aria-label={t("播放 {{title}}", { title: text(clip.title) })}
            ></audio>
          ) : (
            ""
          )}
          {text(clip.text) ? (
            <pre class="whitespace-pre-wrap text-sm" safe>
              {text(clip.text)}
            </pre>
          ) : (
            ""
          )}
        </div>
      ))}
    </div>
  );
}

function MusicDetail(props: { context: PageContext; row: MusicRow }) {
  const { context, row } = props;
  const { t } = context;
  return (
    <Modal id="task-detail" t={t} title={t("任务详情")} open>
      <div class="flex flex-col gap-1">
        <DetailRow label={t("任务 ID")}>
          <span class="font-mono" safe>
            {row.task_id}
          </span>
        </DetailRow>
        <DetailRow label={t("平台")}>
          <span safe>{platforms[row.platform] ?? row.platform}</span>
        </DetailRow>
        <DetailRow label={t("类型")}>
          <span safe>{t(taskActions[row.action] ?? "未知")}</span>
        </DetailRow>
        <DetailRow label={t("任务状态")}>
          <StatusBadge t={t} status={row.status} badges={taskStatuses} />
        </DetailRow>
        <DetailRow label={t("进度")}>
          <ProgressCell progress={row.progress} />
        </DetailRow>
        <DetailRow label={t("提交时间")}>
          <LocalTime seconds={row.submit_time} zone={context.timeZone} />
        </DetailRow>
        <DetailRow label={t("完成时间")}>
          <LocalTime seconds={row.finish_time} zone={context.timeZone} />
        </DetailRow>
        <DetailRow label={t("花费")}>
          <span safe>{formatQuotaDisplay(row.quota, context.status, 6) + (row.refunded ? refundedNote(t) : "")}</span>
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
        <Results context={context} row={row} />
      </div>
    </Modal>
  );
}

export const musicPage = taskListPage<MusicRow>({
  kind: "music",
  path: "/task",
  tableId: "task-table",
  detailSlot: "task-detail-slot",
  title: "异步任务",
  emptyText: "暂无任务",
  tasks: music,
  columns,
  detail: (context, row) => <MusicDetail context={context} row={row} />,
  mediaSources: ["https:", "http:"],
});
