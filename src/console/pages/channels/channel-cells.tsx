// The cells of a channel row: status with the reason of an automatic
// disable, response time in new-api's colour bands, used quota and balance (with the billing
// flag of an upstream that reports more than max_tokens), priority and weight edited in place,
// and the row's actions.
import type { Translate } from "../../../i18n/i18n.ts";
import type { ChannelView } from "../../../services/channels/channel-queries.ts";
import { channelTypeInfo } from "../../../services/channels/channel-types.ts";
import { isMultiKey, KeyStatus, keyStates, parseChannelInfo } from "../../../services/channels/channel-keys.ts";
import type { SystemStatus } from "../../../services/status/system-status.ts";
import { formatDollars, formatQuotaDisplay, formatUnixTime } from "../../format.ts";
import { lastTestFailure } from "../../../relay/channels/channel-test-outcome.ts";
import { nowSeconds } from "../../../clock.ts";

export const channelTableId = "channel-table";
const refreshTable = `refresh:#${channelTableId}`;

/** Untested grey, up to 1 s green, up to 3 s lime, up to 5 s yellow, slower red. */
function responseTimeClass(milliseconds: number): string {
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

/** A multi-key channel's keys: enabled of all, the disabled ones with their reasons in the title. */
function KeysBadge(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  const info = parseChannelInfo(channel.channel_info);
  if (!isMultiKey(info)) return "";
  const states = keyStates(info, info.multi_key_size ?? 0);
  const enabled = states.filter((state) => state.status === KeyStatus.enabled).length;
  const lines = states
    .filter((state) => state.status !== KeyStatus.enabled)
    .map((state) =>
      state.status === KeyStatus.autoDisabled
        ? t("密钥 #{{number}} 自动禁用：{{reason}}", { number: state.index + 1, reason: state.reason ?? "" })
        : t("密钥 #{{number}} 已手动禁用", { number: state.index + 1 }),
    );
  return (
    <span
      class={`badge badge-xs whitespace-nowrap ${enabled === states.length ? "badge-ghost" : "badge-warning"}`}
      title={[t("多密钥（{{mode}}）", { mode: info.multi_key_mode === "polling" ? t("轮询") : t("随机") }), ...lines].join("\n")}
      data-keys={`${enabled}/${states.length}`}
      safe
    >
      {t("密钥 {{enabled}}/{{total}}", { enabled, total: states.length })}
    </span>
  );
}

export function StatusCell(props: { t: Translate; channel: ChannelView }) {
  return (
    <span class="flex items-center gap-1 whitespace-nowrap">
      <ChannelStatusBadge t={props.t} channel={props.channel} />
      <KeysBadge t={props.t} channel={props.channel} />
    </span>
  );
}

function ChannelStatusBadge(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  if (channel.status === 1)
    return (
      <span class="badge badge-sm badge-success whitespace-nowrap" safe>
        {t("已启用")}
      </span>
    );
  if (channel.status === 2)
    return (
      <span class="badge badge-sm badge-neutral whitespace-nowrap" safe>
        {t("已禁用")}
      </span>
    );
  if (channel.status === 3) {
    const why = statusReason(channel);
    const title = why ? t("原因：{{reason}}，时间：{{time}}", { reason: why.reason, time: formatUnixTime(why.time) }) : undefined;
    return (
      <span class="flex items-center gap-1 whitespace-nowrap">
        <span class="badge badge-sm badge-warning whitespace-nowrap" title={title} safe>
          {t("自动禁用")}
        </span>
        {why ? (
          <span class="text-base-content/60 inline-block max-w-16 truncate text-xs" title={title} safe>
            {why.reason}
          </span>
        ) : (
          ""
        )}
      </span>
    );
  }
  return (
    <span class="badge badge-sm badge-ghost" safe>
      {t("未知状态")}
    </span>
  );
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
  return (
    <span
      class={`badge badge-sm whitespace-nowrap ${responseTimeClass(channel.response_time)}`}
      title={title}
      data-response-time={String(channel.response_time)}
      safe
    >
      {label}
    </span>
  );
}

/** A flag stays bright this long after the upstream last reported more than max_tokens. */
const recentFlagSeconds = 7 * 86_400;

/**
 * The channel's billing flag: answers whose reported completion exceeded the request's
 * max_tokens (a broken or dishonest upstream), and what its requests cost beyond the balances
 * (which stop at zero). Bright while the last excess is recent, grey after.
 */
function BillingFlag(props: { t: Translate; channel: ChannelView; status: SystemStatus }) {
  const { t, channel, status } = props;
  if (channel.over_limit_count <= 0 && channel.uncollected_quota <= 0) return "";
  const lines = [];
  if (channel.over_limit_count > 0)
    lines.push(
      t("上游报告的输出超过 max_tokens：{{count}} 次，最近一次：{{time}}", {
        count: channel.over_limit_count,
        time: formatUnixTime(channel.over_limit_at),
      }),
    );
  if (channel.uncollected_quota > 0)
    lines.push(t("余额或额度不足未能收取：{{amount}}", { amount: formatQuotaDisplay(channel.uncollected_quota, status) }));
  const recent = channel.over_limit_count > 0 && nowSeconds() - channel.over_limit_at < recentFlagSeconds;
  return (
    <span
      class={`badge badge-xs whitespace-nowrap ${recent ? "badge-warning" : "badge-ghost"}`}
      title={lines.join("\n")}
      data-billing-flag={`${channel.over_limit_count}/${channel.uncollected_quota}`}
      safe
    >
      {t("超额用量")}
    </span>
  );
}

export function QuotaCell(props: { t: Translate; channel: ChannelView; status: SystemStatus }) {
  const { t, channel, status } = props;
  const used = formatQuotaDisplay(channel.used_quota, status);
  const remaining = formatDollars(channel.balance);
  return (
    // The header says 已用/剩余; the labels live in the titles so the cell stays one short line.
    <span class="flex items-center gap-1 text-xs whitespace-nowrap">
      <BillingFlag t={t} channel={channel} status={status} />
      <span title={t("已用：{{amount}}", { amount: used })} data-used safe>
        {used}
      </span>
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
      data-confirm={
        tagRow
          ? t("修改标签 {{tag}} 下所有渠道的{{field}}，确定吗？", { tag: props.tag, field: name === "priority" ? t("优先级") : t("权重") })
          : undefined
      }
      data-success={refreshTable}
    />
  );
}

/** Test (the channel's test model) and the test dialog: every model, searchable, one, several or all. */
function TestMenu(props: { t: Translate; channel: ChannelView }) {
  const { t, channel } = props;
  return (
    <div class="join">
      <button
        type="button"
        class="btn btn-ghost btn-xs join-item"
        data-api-call={`GET /api/channel/test/${channel.id}`}
        data-success={refreshTable}
        safe
      >
        {t("测试")}
      </button>
      <button
        type="button"
        class="btn btn-ghost btn-xs join-item"
        aria-label={t("选择测试模型")}
        title={t("选择测试模型")}
        hx-get={`/channel?test_dialog=${channel.id}`}
        hx-target="#channel-dialog-slot"
        hx-swap="innerHTML"
      >
        <span aria-hidden="true">{"▾"}</span>
      </button>
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
      <button type="button" class="btn btn-ghost btn-xs" data-channel-edit={String(channel.id)} safe>
        {t("编辑")}
      </button>
      <details class="dropdown dropdown-end">
        <summary class="btn btn-ghost btn-xs" aria-label={t("更多操作")} title={t("更多操作")}>
          {"⋯"}
        </summary>
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
