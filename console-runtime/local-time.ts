// Dates as people type them in the console (yyyy-MM-dd HH:mm:ss), in the
// browser's own time zone, converted to and from the unix seconds the API speaks.
const pad = (value: number) => String(value).padStart(2, "0");

export function formatLocalTime(seconds: number): string {
  const date = new Date(seconds * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}

/** The unix seconds of a local "yyyy-MM-dd HH:mm:ss", -1 for "-1", or undefined when it does not parse. */
export function parseLocalTime(text: string): number | undefined {
  const value = text.trim();
  if (value === "-1") return -1;
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [number, number, number, number, number, number];
  const date = new Date(year, month - 1, day, hour, minute, second);
  if (date.getMonth() !== month - 1 || date.getDate() !== day) return undefined;
  return Math.floor(date.getTime() / 1000);
}

/** The value a native date-time picker (<input type="datetime-local" step="1">) takes for a typed time. */
export function toPickerValue(text: string): string {
  const seconds = parseLocalTime(text);
  return seconds === undefined || seconds < 0 ? "" : formatLocalTime(seconds).replace(" ", "T");
}

/** A native picker's "yyyy-MM-ddTHH:mm[:ss]" in the console's one format, "yyyy-MM-dd HH:mm:ss". */
export function fromPickerValue(value: string): string {
  const [date, time = ""] = value.split("T");
  if (!date || !time) return "";
  return `${date} ${time.length === 5 ? `${time}:00` : time.slice(0, 8)}`;
}
