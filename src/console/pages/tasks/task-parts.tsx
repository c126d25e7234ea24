// Pieces shared by /midjourney and /task: the filter form (the lists' time range and quick ranges,
// the upstream task id, and the channel for admins), status badges, progress bars and the time a
// task took (a drawing that took more than 60 s shows red; docs/COMPATIBILITY.md, Console conventions).
import { nowSeconds } from "../../../clock.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import { DateRangeFields, defaultRange } from "../../components/date-range-fields.tsx";
import { LocalTime } from "../../components/local-time.tsx";
import type { SignedInPageContext } from "../../page-context.ts";

export type Badge = { label: string; class: string };

export function StatusBadge(props: { t: Translate; status: string; badges: Record<string, Badge> }) {
  const badge = props.badges[props.status] ?? { label: "未知", class: "badge-ghost" };
  return (
    <span class={`badge badge-sm whitespace-nowrap ${badge.class}`} safe>
      {props.t(badge.label)}
    </span>
  );
}

export function ProgressCell(props: { progress: string }) {
  const value = Number(/^(\d+(?:\.\d+)?)/.exec(props.progress)?.[1] ?? 0);
  return (
    <span class="flex items-center gap-2 whitespace-nowrap">
      <progress
        class={`progress w-16 ${value >= 100 ? "progress-success" : "progress-primary"}`}
        value={String(Math.min(100, value))}
        max="100"
      ></progress>
      <span class="text-xs" safe>
        {props.progress || "0%"}
      </span>
    </span>
  );
}

/** Seconds between submission and end (or now, while running); red above `redAbove`. */
export function DurationBadge(props: { t: Translate; seconds: number; redAbove?: number }) {
  if (!(props.seconds >= 0)) return "-";
  const style = props.redAbove !== undefined && props.seconds > props.redAbove ? "badge-error" : "badge-ghost";
  return (
    <span class={`badge badge-sm whitespace-nowrap ${style}`} safe>
      {props.t("{{seconds}} 秒", { seconds: props.seconds.toFixed(1) })}
    </span>
  );
}

/** A drawing's time (milliseconds) as a <LocalTime>. */
export const MillisecondsTime = (props: { ms: number; zone: string | undefined }) => (
  <LocalTime seconds={props.ms > 0 ? Math.floor(props.ms / 1000) : 0} zone={props.zone} />
);

function Field(props: { name: string; label: string; value: string }) {
  return (
    <label class="form-control w-full sm:w-44">
      <span class="label-text mb-1 block text-xs" safe>
        {props.label}
      </span>
      <input name={props.name} class="input input-bordered input-sm w-full" value={props.value} />
    </label>
  );
}

export function TaskFilters(props: {
  context: SignedInPageContext;
  path: string;
  target: string;
  idField: string;
  query: Record<string, string>;
}) {
  const { context, query } = props;
  const { t } = context;
  return (
    <search>
      <form
        class="flex flex-wrap items-end gap-2"
        hx-get={props.path}
        hx-target={`#${props.target}`}
        hx-swap="outerHTML"
        hx-push-url="true"
      >
        <DateRangeFields
          t={t}
          idPrefix={props.target}
          start={query.start_timestamp ?? ""}
          end={query.end_timestamp ?? ""}
          now={nowSeconds()}
          zone={context.timeZone}
        />
        <Field name={props.idField} label={t("任务 ID")} value={query[props.idField] ?? ""} />
        {isAdmin(context.user.role) ? <Field name="channel_id" label={t("渠道 ID")} value={query.channel_id ?? ""} /> : ""}
        <button type="submit" class="btn btn-primary btn-sm" safe>
          {t("查询")}
        </button>
      </form>
    </search>
  );
}

/** The query with the lists' default time range filled in (unix seconds) where the visitor gave none. */
export function queryWithDefaults(context: SignedInPageContext): Record<string, string> {
  const query = Object.fromEntries(context.url.searchParams);
  const range = defaultRange(nowSeconds(), context.timeZone);
  if (!context.url.searchParams.has("start_timestamp")) query.start_timestamp = String(range.start);
  if (!context.url.searchParams.has("end_timestamp")) query.end_timestamp = String(range.end);
  return query;
}

/** A label and its value in a detail dialog. */
export function DetailRow(props: { label: string; children?: JSX.Element }) {
  return (
    <div class="grid grid-cols-[7rem_1fr] gap-2 py-1 text-sm">
      <span class="text-base-content/60" safe>
        {props.label}
      </span>
      {/* Values are rendered by the callers with `safe`. */}
      <span class="break-all">{props.children as "safe"}</span>
    </div>
  );
}

/** " (refunded)" after the cost of a task whose charge came back. */
export function refundedNote(t: Translate): string {
  const note = t("已退还");
  return ` (${note})`;
}

/** A link or media address from an upstream, shown only when it is web or our own (no javascript: or data: URLs). */
export function webAddress(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  return /^https?:\/\//i.test(value) || /^\/(?!\/)/.test(value) ? value : undefined;
}
