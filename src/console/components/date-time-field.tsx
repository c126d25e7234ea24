// The console's one date-time field (issue 17): the text shows "yyyy-MM-dd HH:mm:ss" in every
// language (the /log format), and a button opens the browser's own date-time picker, whose
// choice comes back in that format (console-runtime/date-pickers.ts). A native picker alone
// would show the browser's format (US in a Chinese console).
import type { Translate } from "../../i18n/i18n.ts";
import { Calendar } from "lucide-static";

// Static SVG text of our own dependency, so it is not escaped.
const safeCalendarSvg = Calendar.replace("<svg", '<svg aria-hidden="true" class="size-4"').replace(/class="lucide[^"]*"/, "");

export type DateTimeFieldProps = {
  t: Translate;
  id: string;
  name: string;
  /** Unix seconds filled in by the browser (its time zone); absent leaves the field empty. */
  unix?: number;
  size?: "sm" | "md";
  /** Extra attributes for the text input (data-json-type, data-epoch, data-never...). */
  attributes?: Record<string, string | boolean>;
  label?: string;
};

export function DateTimeField(props: DateTimeFieldProps) {
  const { t, id, name } = props;
  const small = props.size === "sm";
  return (
    <div class="join w-full" data-date-time>
      <input
        id={id}
        name={name}
        class={`input input-bordered join-item w-full min-w-0 font-mono ${small ? "input-sm" : ""}`}
        placeholder="yyyy-MM-dd HH:mm:ss"
        autocomplete="off"
        aria-label={props.label}
        data-unix={props.unix !== undefined && props.unix > 0 ? String(props.unix) : undefined}
        {...props.attributes}
      />
      <button
        type="button"
        class={`btn join-item ${small ? "btn-sm" : ""}`}
        data-pick-time={`#${id}`}
        aria-label={t("选择日期和时间")}
        title={t("选择日期和时间")}
      >
        <span class="inline-flex">{safeCalendarSvg}</span>
      </button>
      {/* The browser's own picker, opened by the button; labelled for the browsers that focus it instead. */}
      <input type="datetime-local" step="1" class="sr-only" tabindex="-1" aria-label={t("选择日期和时间")} data-picker-for={`#${id}`} />
    </div>
  );
}
