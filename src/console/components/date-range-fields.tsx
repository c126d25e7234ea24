// The time range of a list's filter form (/log, /midjourney, /task): two date-time fields with the
// picker (date-time-field.tsx), sent as unix seconds (data-epoch), and quick ranges (today, 7
// days, 30 days) that fill both and submit (console-runtime/date-pickers.ts). Every list starts
// on the same default range: today in the browser's zone, up to an hour ahead.
import type { Translate } from "../../i18n/i18n.ts";
import { startOfDay } from "../time-zone.ts";
import { DateTimeField } from "./date-time-field.tsx";

/** Days back from today, today included. */
const quickRanges = [
  { days: 1, label: "今天" },
  { days: 7, label: "近 7 天" },
  { days: 30, label: "近 30 天" },
] as const;

/** Unix seconds of every list's default range: today (in the browser's zone) to an hour ahead. */
export function defaultRange(now: number, zone: string | undefined): { start: number; end: number } {
  return { start: startOfDay(now, zone), end: now + 3600 };
}

export function DateRangeFields(props: {
  t: Translate;
  idPrefix: string;
  start: string;
  end: string;
  now: number;
  zone: string | undefined;
}) {
  const { t, idPrefix } = props;
  // The quick range whose start the form shows (the end of one is "an hour from when it was chosen").
  const active = quickRanges.find((range) => String(startOfDay(props.now, props.zone, range.days - 1)) === props.start)?.days;
  const field = (name: string, value: string, label: string) => (
    <div class="form-control w-full sm:w-60">
      <label for={`${idPrefix}-${name}`} class="label-text mb-1 block text-xs" safe>
        {label}
      </label>
      <DateTimeField
        t={t}
        id={`${idPrefix}-${name}`}
        name={name}
        size="sm"
        unix={Number(value) || undefined}
        attributes={{ "data-epoch": true }}
      />
    </div>
  );
  return (
    <>
      {field("start_timestamp", props.start, t("起始时间"))}
      {field("end_timestamp", props.end, t("结束时间"))}
      <fieldset class="join" aria-label={t("快捷时间范围")}>
        {quickRanges.map((range) => (
          <button
            type="button"
            class={`btn btn-sm join-item ${active === range.days ? "btn-active" : ""}`}
            data-quick-range={String(range.days)}
            aria-pressed={active === range.days ? "true" : "false"}
            safe
          >
            {t(range.label)}
          </button>
        ))}
      </fieldset>
    </>
  );
}
