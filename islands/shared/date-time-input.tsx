/** @jsxImportSource react */
// The React twin of src/console/components/date-time-field.tsx for islands: the text shows
// "yyyy-MM-dd HH:mm:ss" whatever the browser's locale, and the button opens the browser's own
// picker, whose choice comes back in that format.
import { useRef } from "react";
import { fromPickerValue, toPickerValue } from "../console/local-time.ts";

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
        {"📅"}
      </button>
      <input ref={picker} type="datetime-local" step="1" className="sr-only" tabIndex={-1} aria-hidden="true" onChange={(event) => props.onChange(fromPickerValue(event.target.value))} />
    </span>
  );
}
