// Number and quota formats shared by pages and islands (docs/COMPATIBILITY.md, Quota units and prices): currency = quota /
// QuotaPerUnit when the site displays currency; counts shortened to k, M, B. A non-zero amount
// never reads as zero: small amounts get the decimals their first two significant digits need
// ($0.0042, not $0.00). Pure functions without server imports, so islands can use them too.

export type MoneyDisplay = { display_in_currency: boolean; quota_per_unit: number };

export function formatCount(value: number): string {
  const units: [number, string][] = [
    [1e9, "B"],
    [1e6, "M"],
    [1e4, "k"],
  ];
  for (const [size, suffix] of units) {
    if (Math.abs(value) >= size) return `${(value / size).toFixed(2).replace(/\.?0+$/, "")}${suffix}`;
  }
  return String(value);
}

const maxDecimals = 8;

/** `digits` decimals, more when that would round a non-zero amount to zero. */
export function formatAmount(amount: number, digits = 2): string {
  if (amount === 0 || !Number.isFinite(amount)) return (Number.isFinite(amount) ? amount : 0).toFixed(digits);
  const needed = Math.min(maxDecimals, Math.max(digits, 1 - Math.floor(Math.log10(Math.abs(amount)))));
  const text = amount.toFixed(needed);
  // Extra decimals beyond `digits` are only there for significance: no trailing zeros.
  return needed > digits ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
}

/**
 * A stored sum as it was paid: at least two decimals, and every further one it really has (an
 * imported new-api order may hold 0.125 or 13.6845), up to six, without binary noise (7.3 stays 7.30).
 */
export function formatPaidAmount(amount: number): string {
  if (!Number.isFinite(amount)) return "0.00";
  const exact = amount.toFixed(6).replace(/0+$/, "");
  const decimals = exact.length - exact.indexOf(".") - 1;
  return decimals <= 2 ? amount.toFixed(2) : exact;
}

export function formatDollars(amount: number, digits = 2): string {
  return `$${formatAmount(amount, digits)}`;
}

export function formatQuotaDisplay(quota: number, status: MoneyDisplay, digits = 2): string {
  if (status.display_in_currency && status.quota_per_unit > 0) return formatDollars(quota / status.quota_per_unit, digits);
  return formatCount(quota);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();

/** The parts of an instant's wall-clock time in a time zone (IANA name), month 1-12. */
export function zonedParts(milliseconds: number, timeZone: string) {
  let format = zoneFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    zoneFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(milliseconds)) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

/**
 * "yyyy-MM-dd HH:mm:ss" in the given time zone (the browser's, when the page knows it), else in
 * this process's zone. Pages wrap it in <LocalTime>, which the browser re-renders in its own.
 */
export function formatUnixTime(seconds: number, timeZone?: string): string {
  if (!seconds || seconds <= 0) return "-";
  const pad = (n: number) => String(n).padStart(2, "0");
  if (timeZone) {
    const p = zonedParts(seconds * 1000, timeZone);
    return `${p.year}-${pad(p.month)}-${pad(p.day)} ${pad(p.hour)}:${pad(p.minute)}:${pad(p.second)}`;
  }
  const date = new Date(seconds * 1000);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
