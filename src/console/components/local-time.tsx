// A point in time on a page: "yyyy-MM-dd HH:mm:ss" in the browser's zone when the page knows it
// (time-zone.ts), and a <time> element the browser re-renders in its own zone on load and after
// every htmx swap (console-runtime/time-zone.ts), so a first visit or a travelling laptop never
// shows the server's zone beside the pickers' browser-zone times.
import { formatUnixTime } from "../format.ts";

export function LocalTime(props: { seconds: number; zone: string | undefined; class?: string }) {
  if (!props.seconds || props.seconds <= 0) return <span class={props.class}>-</span>;
  return (
    <time datetime={new Date(props.seconds * 1000).toISOString()} data-local-time={String(props.seconds)} class={props.class} safe>
      {formatUnixTime(props.seconds, props.zone)}
    </time>
  );
}
