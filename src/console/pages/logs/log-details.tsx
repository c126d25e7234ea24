// How one log entry is shown: the colour bands of spec §9 for use time and first-token time,
// and the expandable details read from its `other` JSON (ratios, mapping, retry chain).
import type { Translate } from "../../../i18n/i18n.ts";
import type { LogView } from "../../../services/logs/log-queries.ts";

/** Use time: below 101 s green, below 300 s orange, else red. */
export function useTimeClass(seconds: number): string {
  if (seconds < 101) return "badge-success";
  if (seconds < 300) return "badge-warning";
  return "badge-error";
}

/** First-token time (milliseconds): below 3 s green, below 10 s orange, else red. */
export function firstTokenClass(milliseconds: number): string {
  if (milliseconds < 3000) return "badge-success";
  if (milliseconds < 10000) return "badge-warning";
  return "badge-error";
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
  admin_info?: { use_channel?: string[] };
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

export function TimeBadges(props: { t: Translate; entry: LogView; other: LogOther }) {
  const { t, entry, other } = props;
  const frt = typeof other.frt === "number" && other.frt > 0 ? other.frt : undefined;
  return (
    <span class="flex flex-wrap gap-1">
      <span class={`badge badge-sm whitespace-nowrap ${useTimeClass(entry.use_time)}`} safe>{t("{{seconds}} 秒", { seconds: entry.use_time })}</span>
      {entry.is_stream && frt !== undefined ? (
        <span class={`badge badge-sm whitespace-nowrap ${firstTokenClass(frt)}`} safe>{t("首字 {{seconds}} 秒", { seconds: (frt / 1000).toFixed(1) })}</span>
      ) : (
        ""
      )}
      <span class="badge badge-sm badge-ghost whitespace-nowrap" safe>{entry.is_stream ? t("流") : t("非流")}</span>
    </span>
  );
}

/** The rows of the expandable details; only what the entry actually carries. */
export function detailRows(t: Translate, entry: LogView, other: LogOther, admin: boolean): [string, string][] {
  const rows: [string, string][] = [];
  if (entry.content) rows.push([t("详情"), entry.content]);
  if (typeof other.model_price === "number" && other.model_price >= 0) rows.push([t("模型价格"), `$${other.model_price}`]);
  else if (typeof other.model_ratio === "number") rows.push([t("模型倍率"), String(other.model_ratio)]);
  if (typeof other.completion_ratio === "number" && !(typeof other.model_price === "number" && other.model_price >= 0)) {
    rows.push([t("补全倍率"), String(other.completion_ratio)]);
  }
  if (typeof other.group_ratio === "number") rows.push([t("分组倍率"), String(other.group_ratio)]);
  if (typeof other.frt === "number" && other.frt > 0) rows.push([t("首字时间"), t("{{milliseconds}} 毫秒", { milliseconds: Math.round(other.frt) })]);
  if (other.is_model_mapped && other.upstream_model_name) rows.push([t("实际模型"), other.upstream_model_name]);
  if (other.reasoning_effort) rows.push([t("推理强度"), other.reasoning_effort]);
  if (typeof other.inbound_format === "string" && other.inbound_format) {
    const format = formatNames[other.inbound_format] ?? other.inbound_format;
    rows.push([t("入站格式"), other.inbound_converted ? t("{{format}}，转换为 OpenAI 格式", { format }) : t("{{format}}，原样转发", { format })]);
  }
  const chain = other.admin_info?.use_channel;
  if (admin && chain && chain.length > 0) rows.push([t("重试链路"), chain.join(" → ")]);
  return rows;
}

export function LogDetails(props: { t: Translate; entry: LogView; other: LogOther; admin: boolean }) {
  const { t, entry, other, admin } = props;
  const rows = detailRows(t, entry, other, admin);
  if (rows.length === 0) return "";
  return (
    <details class="max-w-xs">
      <summary class="link text-xs" safe>{t("展开")}</summary>
      <dl class="mt-1 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
        {rows.map(([label, value]) => (
          <>
            <dt class="text-base-content/60 whitespace-nowrap" safe>{label}</dt>
            <dd class="break-all" safe>{value}</dd>
          </>
        ))}
      </dl>
    </details>
  );
}
