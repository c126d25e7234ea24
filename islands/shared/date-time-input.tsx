/** @jsxImportSource react */
// The React twin of src/console/components/date-time-field.tsx for islands: the text shows
// "yyyy-MM-dd HH:mm:ss" whatever the browser's locale, and the button opens the browser's own
// picker, whose choice comes back in that format. The button shows lucide's calendar (the
// console's icon set), not an emoji some systems have no font for.
import { Calendar } from "lucide-static";
import { useRef } from "react";
import { fromPickerValue, toPickerValue } from "../../console-runtime/local-time.ts";

const calendarSvg = Calendar.replace("<svg", '<svg aria-hidden="true" class="size-4"').replace(/class="lucide[^"]*"/, "");

export function DateTimeInput(props: { value: string; onChange: (value: string) => void; pickLabel: string; id?: string }) {
  const picker = useRef<HTMLInputElement>(null);
  const open = () => {
    const input = picker.current;
    if (!input) return;
    input.value = toPickerValue(props.value);
    try {
      input.showPicker();
    } catch {
      input.focus();
    }
  };
  return (
    <span className="join">
      <input
        id={props.id}
        className="input input-bordered input-sm join-item w-44 font-mono"
        value={props.value}
        placeholder="yyyy-MM-dd HH:mm:ss"
        autoComplete="off"
        onChange={(event) => props.onChange(event.target.value)}
      />
      <button type="button" className="btn btn-sm join-item" aria-label={props.pickLabel} title={props.pickLabel} onClick={open}>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: lucide's own SVG text, bundled, never user input */}
        <span className="inline-flex" dangerouslySetInnerHTML={{ __html: calendarSvg }} />
      </button>
      <input
        ref={picker}
        type="datetime-local"
        step="1"
        className="sr-only"
        tabIndex={-1}
        aria-label={props.pickLabel}
        onChange={(event) => props.onChange(fromPickerValue(event.target.value))}
      />
    </span>
  );
}
