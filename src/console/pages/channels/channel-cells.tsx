// The cells of a channel row (spec §2 Channel list): status with the reason of an automatic
// disable, response time in the colour bands of spec §9, used quota and balance, priority and
// weight edited in place, and the row's actions.
import type { Translate } from "../../../i18n/i18n.ts";
import type { ChannelView } from "../../../services/channels/channel-queries.ts";
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import { splitList } from "../../../services/channels/channel-input.ts";
import type { SystemStatus } from "../../../services/status/system-status.ts";
import { formatDollars, formatQuotaDisplay, formatUnixTime } from "../../format.ts";
import { lastTestFailure } from "../../../relay/channel-test-outcome.ts";

export const channelTableId = "channel-table";
const refreshTable = `refresh:#${channelTableId}`;

/** Untested grey, up to 1 s green, up to 3 s lime, up to 5 s yellow, slower red. */
export function responseTimeClass(milliseconds: number): string {
  if (milliseconds <= 0) return "badge-ghost";
  if (milliseconds <= 1000) return "badge-success";
  if (milliseconds <= 3000) return "bg-lime-500 text-white border-lime-500";
  if (milliseconds <= 5000) return "badge-warning";
  return "badge-error";
}

export function typeName(t: Translate, type: number): string {
  const info = channelTypeInfo(type);
  return info ? t(info.name) : t("未知类型");
}

function statusReason(channel: ChannelView): { reason: string; time: number } | undefined {
  try {
    const info = JSON.parse(channel.other_info || "{}") as { status_reason?: string; status_time?: number };
    return info.status_reason ? { reason: info.status_reason, time: info.status_time ?? 0 } : undefined;
  } catch {
    return undefined;
  }
}

export function StatusCell(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  if (channel.status === 1) return <span class="badge badge-sm badge-success whitespace-nowrap" safe>{t("已启用")}</span>;
  if (channel.status === 2) return <span class="badge badge-sm badge-neutral whitespace-nowrap" safe>{t("已禁用")}</span>;
  if (channel.status === 3) {
    const why = statusReason(channel);
    const title = why ? t("原因：{{reason}}，时间：{{time}}", { reason: why.reason, time: formatUnixTime(why.time) }) : undefined;
    return (
      <span class="flex items-center gap-1 whitespace-nowrap">
        <span class="badge badge-sm badge-warning whitespace-nowrap" title={title} safe>{t("自动禁用")}</span>
        {why ? <span class="text-base-content/60 inline-block max-w-16 truncate text-xs" title={title} safe>{why.reason}</span> : ""}
      </span>
    );
  }
  return <span class="badge badge-sm badge-ghost" safe>{t("未知状态")}</span>;
}

export function ResponseTimeCell(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  const failure = lastTestFailure(channel.other_info);
  if (failure && channel.test_time > 0) {
    const title = t("测试时间：{{time}}", { time: formatUnixTime(channel.test_time) });
    return (
      <span class="badge badge-sm badge-error max-w-40 whitespace-nowrap" title={`${failure}\n${title}`} data-test-failure={failure} safe>
        {t("测试失败")}
      </span>
    );
  }
  const label = channel.response_time > 0 ? t("{{seconds}} 秒", { seconds: (channel.response_time / 1000).toFixed(2) }) : t("未测试");
  const title = channel.test_time > 0 ? t("测试时间：{{time}}", { time: formatUnixTime(channel.test_time) }) : undefined;
  return <span class={`badge badge-sm whitespace-nowrap ${responseTimeClass(channel.response_time)}`} title={title} data-response-time={String(channel.response_time)} safe>{label}</span>;
}

export function QuotaCell(props: { t: Translate; channel: ChannelView; status: SystemStatus }) {
  const { t, channel, status } = props;
  const used = formatQuotaDisplay(channel.used_quota, status);
  const remaining = formatDollars(channel.balance);
  return (
    // The header says 已用/剩余; the labels live in the titles so the cell stays one short line.
    <span class="flex items-center gap-1 text-xs whitespace-nowrap">
      <span title={t("已用：{{amount}}", { amount: used })} data-used safe>{used}</span>
      <span class="text-base-content/40">{"/"}</span>
      <button
        type="button"
        class="link link-hover text-left"
        title={t("剩余：{{amount}}，点击更新余额", { amount: remaining })}
        data-api-call={`GET /api/channel/update_balance/${channel.id}/`}
        data-success={refreshTable}
        data-remaining
        safe
      >
        {remaining}
      </button>
    </span>
  );
}

/** Priority or weight, saved on change; on a tag row it applies to the whole tag after a confirmation. */
export function NumberCell(props: { t: Translate; name: "priority" | "weight"; value: number; channelId?: number; tag?: string }) {
  const { t, name, value } = props;
  const tagRow = props.tag !== undefined;
  return (
    <input
      type="number"
      name={name}
      value={String(value)}
      min={name === "priority" ? "-999" : "0"}
      // Reads as a plain number until hovered or focused: edited in place, saved on change.
      class="input input-ghost input-xs hover:border-base-300 w-12 px-1 text-center"
      aria-label={name === "priority" ? t("优先级") : t("权重")}
      data-api-change={tagRow ? "PUT /api/channel/tag" : "PUT /api/channel/"}
      data-body={JSON.stringify(tagRow ? { tag: props.tag } : { id: props.channelId })}
      data-confirm={tagRow ? t("修改标签 {{tag}} 下所有渠道的{{field}}，确定吗？", { tag: props.tag, field: name === "priority" ? t("优先级") : t("权重") }) : undefined}
      data-success={refreshTable}
    />
  );
}

function TestMenu(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  const models = splitList(channel.models);
  return (
    <div class="join">
      <button type="button" class="btn btn-ghost btn-xs join-item" data-api-call={`GET /api/channel/test/${channel.id}`} data-success={refreshTable} safe>
        {t("测试")}
      </button>
      <details class="dropdown dropdown-end join-item">
        <summary class="btn btn-ghost btn-xs" aria-label={t("选择测试模型")}>{"▾"}</summary>
        <ul class="menu dropdown-content bg-base-100 rounded-box z-20 max-h-64 w-56 flex-nowrap overflow-y-auto p-2 shadow">
          {models.map((model) => (
            <li>
              <button
                type="button"
                data-api-call={`GET /api/channel/test/${channel.id}?model=${encodeURIComponent(model)}`}
                data-success={refreshTable}
                safe
              >
                {model}
              </button>
            </li>
          ))}
        </ul>
      </details>
    </div>
  );
}

/** Test (with its model menu) and edit stay visible; the rarer actions live in the "more" menu. */
export function ActionsCell(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  const enabled = channel.status === 1;
  return (
    <div class="flex flex-nowrap items-center gap-1 whitespace-nowrap">
      <TestMenu t={t} channel={channel} />
      <button type="button" class="btn btn-ghost btn-xs" data-channel-edit={String(channel.id)} safe>{t("编辑")}</button>
      <details class="dropdown dropdown-end">
        <summary class="btn btn-ghost btn-xs" aria-label={t("更多操作")} title={t("更多操作")}>{"⋯"}</summary>
        <ul class="menu dropdown-content bg-base-100 rounded-box z-20 w-36 p-2 shadow">
          <li>
            <button
              type="button"
              data-api-call="PUT /api/channel/"
              data-body={JSON.stringify({ id: channel.id, status: enabled ? 2 : 1 })}
              data-success={refreshTable}
              safe
            >
              {enabled ? t("禁用") : t("启用")}
            </button>
          </li>
          <li>
            <button
              type="button"
              data-api-call={`POST /api/channel/copy/${channel.id}`}
              data-confirm={t("确定要复制渠道 {{name}} 吗？", { name: channel.name })}
              data-success={refreshTable}
              safe
            >
              {t("复制")}
            </button>
          </li>
          <li>
            <button
              type="button"
              class="text-error"
              data-api-call={`DELETE /api/channel/${channel.id}/`}
              data-confirm={t("确定要删除渠道 {{name}} 吗？", { name: channel.name })}
              data-success={refreshTable}
              safe
            >
              {t("删除")}
            </button>
          </li>
        </ul>
      </details>
    </div>
  );
}
