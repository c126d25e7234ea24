// How one log entry is shown: the colour bands (docs/COMPATIBILITY.md, Console conventions) for use time and first-token time,
// and the expandable details read from its `other` JSON (ratios, mapping, retry chain).
import type { Translate } from "../../../i18n/i18n.ts";
import type { LogView } from "../../../services/logs/log-queries.ts";
import type { SystemStatus } from "../../../services/status/system-status.ts";
import { formatQuotaDisplay } from "../../format.ts";
import { logCaptureSlot } from "./log-capture.tsx";

/** Use time: below 101 s green, below 300 s orange, else red. */
function useTimeClass(seconds: number): string {
  if (seconds < 101) return "badge-success";
  if (seconds < 300) return "badge-warning";
  return "badge-error";
}

/** First-token time (milliseconds): below 3 s green, below 10 s orange, else red. */
function firstTokenClass(milliseconds: number): string {
  if (milliseconds < 3000) return "badge-success";
  if (milliseconds < 10000) return "badge-warning";
  return "badge-error";
}

/** Why part of a charge was not collected (logs before the reason was recorded: the balance). */
function uncollectedLabel(t: Translate, reason: LogOther["uncollected_reason"]): string {
  if (reason === "period_quota") return t("本周期额度不足未收取");
  if (reason === "token_quota") return t("令牌额度不足未收取");
  return t("余额不足未收取");
}

export type LogOther = {
  frt?: number;
  model_ratio?: number;
  completion_ratio?: number;
  group_ratio?: number;
  model_price?: number;
  is_model_mapped?: boolean;
  upstream_model_name?: string;
  reasoning_effort?: string;
  /** The vendor format the client called in (absent: OpenAI's own). */
  inbound_format?: string;
  /** That call reached its channel converted to the OpenAI chat format. */
  inbound_converted?: boolean;
  /** Tools the converted call went without (hosted tools the channel does not run). */
  tools_left_out?: string[];
  admin_info?: { use_channel?: string[] };
  /** What the request cost beyond the balance left (which stops at zero): not charged. */
  uncollected?: number;
  /** Which account ran out: the user's balance, the token's quota, or the token's period budget. */
  uncollected_reason?: "user_quota" | "token_quota" | "period_quota";
  /** The request's max_tokens, when the upstream reported more completion tokens than it. */
  over_max_tokens?: number;
  /** The prompt-size tier the call was billed at. */
  price_tier?: { above?: number };
  /** A model without a price, billed by the UnpricedModelPolicy ("ratio" or "free"). */
  unpriced_policy?: string;
  /** Error entries (type 5): the status and error the client received, and where it called. */
  status_code?: number;
  error_type?: string;
  error_code?: string | number | null;
  request_path?: string;
  request_id?: string;
  /** A folded error entry: how many calls of the minute failed alike, and the last one's id. */
  repeat?: number;
  last_request_id?: string;
  /** Failures the error log's limits left out of the minute. */
  dropped?: number;
  /** The request inspector kept this call's bodies (GET /api/log/{id}/capture). */
  captured?: boolean;
};

const formatNames: Record<string, string> = { claude: "Claude Messages", gemini: "Gemini", responses: "OpenAI Responses" };

export function parseOther(other: string): LogOther {
  if (!other) return {};
  try {
    const parsed = JSON.parse(other);
    return parsed && typeof parsed === "object" ? (parsed as LogOther) : {};
  } catch {
    return {};
  }
}

/** An error entry's status, coloured like HTTP's classes: 4xx the caller's, 5xx the server's or upstream's. */
export function ErrorStatus(props: { t: Translate; other: LogOther }) {
  const { t, other } = props;
  if (typeof other.status_code !== "number") return "";
  return (
    <span class="flex flex-wrap gap-1">
      <span
        class={`badge badge-sm whitespace-nowrap ${other.status_code >= 500 ? "badge-error" : "badge-warning"}`}
        data-status={String(other.status_code)}
        safe
      >
        {String(other.status_code)}
      </span>
      {typeof other.repeat === "number" && other.repeat > 1 ? (
        <span class="badge badge-sm badge-ghost whitespace-nowrap" safe>
          {t("{{count}} 次", { count: other.repeat })}
        </span>
      ) : (
        ""
      )}
    </span>
  );
}

export function TimeBadges(props: { t: Translate; entry: LogView; other: LogOther }) {
  const { t, entry, other } = props;
  const frt = typeof other.frt === "number" && other.frt > 0 ? other.frt : undefined;
  return (
    <span class="flex flex-wrap gap-1">
      <span class={`badge badge-sm whitespace-nowrap ${useTimeClass(entry.use_time)}`} safe>
        {t("{{seconds}} 秒", { seconds: entry.use_time })}
      </span>
      {entry.is_stream && frt !== undefined ? (
        <span class={`badge badge-sm whitespace-nowrap ${firstTokenClass(frt)}`} safe>
          {t("首字 {{seconds}} 秒", { seconds: (frt / 1000).toFixed(1) })}
        </span>
      ) : (
        ""
      )}
      <span class="badge badge-sm badge-ghost whitespace-nowrap" safe>
        {entry.is_stream ? t("流") : t("非流")}
      </span>
    </span>
  );
}

/** The rows of the expandable details; only what the entry actually carries. */
function detailRows(t: Translate, entry: LogView, other: LogOther, admin: boolean, status: SystemStatus): [string, string][] {
  const rows: [string, string][] = [];
  if (entry.content) rows.push([t("详情"), entry.content]);
  if (typeof other.model_price === "number" && other.model_price >= 0) rows.push([t("模型价格"), `$${other.model_price}`]);
  else if (typeof other.model_ratio === "number") rows.push([t("模型倍率"), String(other.model_ratio)]);
  if (typeof other.completion_ratio === "number" && !(typeof other.model_price === "number" && other.model_price >= 0)) {
    rows.push([t("补全倍率"), String(other.completion_ratio)]);
  }
  if (typeof other.group_ratio === "number") rows.push([t("分组倍率"), String(other.group_ratio)]);
  if (typeof other.price_tier?.above === "number") {
    rows.push([t("价格分档"), t("提示超过 {{above}} tokens 的价格", { above: other.price_tier.above.toLocaleString("en-US") })]);
  }
  if (other.unpriced_policy === "ratio" || other.unpriced_policy === "free") {
    rows.push([t("未定价模型"), other.unpriced_policy === "free" ? t("免费（按站点设置）") : t("按默认倍率计费")]);
  }
  if (typeof other.frt === "number" && other.frt > 0)
    rows.push([t("首字时间"), t("{{milliseconds}} 毫秒", { milliseconds: Math.round(other.frt) })]);
  if (other.is_model_mapped && other.upstream_model_name) rows.push([t("实际模型"), other.upstream_model_name]);
  if (other.reasoning_effort) rows.push([t("推理强度"), other.reasoning_effort]);
  if (typeof other.inbound_format === "string" && other.inbound_format) {
    const format = formatNames[other.inbound_format] ?? other.inbound_format;
    rows.push([
      t("入站格式"),
      other.inbound_converted ? t("{{format}}，转换为 OpenAI 格式", { format }) : t("{{format}}，原样转发", { format }),
    ]);
  }
  if (Array.isArray(other.tools_left_out) && other.tools_left_out.length > 0)
    rows.push([t("未携带的工具"), other.tools_left_out.join(", ")]);
  if (typeof other.over_max_tokens === "number")
    rows.push([
      t("超出 max_tokens"),
      t("上游报告 {{completion}} 个输出 token，max_tokens 为 {{limit}}", {
        completion: entry.completion_tokens,
        limit: other.over_max_tokens,
      }),
    ]);
  if (typeof other.uncollected === "number" && other.uncollected > 0)
    rows.push([uncollectedLabel(t, other.uncollected_reason), formatQuotaDisplay(other.uncollected, status, 6)]);
  if (typeof other.status_code === "number") rows.push([t("状态码"), String(other.status_code)]);
  if (other.error_type) rows.push([t("错误类型"), other.error_type]);
  if (other.error_code !== undefined && other.error_code !== null && other.error_code !== "")
    rows.push([t("错误代码"), String(other.error_code)]);
  if (other.request_path) rows.push([t("请求路径"), other.request_path]);
  if (other.request_id) rows.push([t("请求 ID"), other.request_id]);
  if (typeof other.repeat === "number" && other.repeat > 1) {
    rows.push([t("同类失败"), t("本分钟内 {{count}} 次，最后一次 {{id}}", { count: other.repeat, id: other.last_request_id ?? "" })]);
  }
  const chain = other.admin_info?.use_channel;
  if (admin && chain && chain.length > 0) rows.push([t("重试链路"), chain.join(" → ")]);
  return rows;
}

export function LogDetails(props: { t: Translate; entry: LogView; other: LogOther; admin: boolean; status: SystemStatus }) {
  const { t, entry, other, admin, status } = props;
  const rows = detailRows(t, entry, other, admin, status);
  if (rows.length === 0 && !other.captured) return "";
  return (
    <details class="max-w-xs">
      <summary class="link text-xs" safe>
        {t("展开")}
      </summary>
      <dl class="mt-1 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
        {rows.map(([label, value]) => (
          <>
            <dt class="text-base-content/60 whitespace-nowrap" safe>
              {label}
            </dt>
            <dd class="break-all" safe>
              {value}
            </dd>
          </>
        ))}
      </dl>
      {other.captured ? (
        <button
          type="button"
          class="btn btn-xs btn-outline mt-1"
          hx-get={`/log?capture=${entry.id}`}
          hx-target={`#${logCaptureSlot}`}
          hx-swap="innerHTML"
          safe
        >
          {t("查看请求记录")}
        </button>
      ) : (
        ""
      )}
    </details>
  );
}
