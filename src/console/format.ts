// Number and quota formats shared by pages (spec §9): currency = quota / QuotaPerUnit with two
// decimals when the site displays currency; counts shortened to k, M, B.
import type { SystemStatus } from "../services/status/system-status.ts";

export function formatCount(value: number): string {
  const units: [number, string][] = [[1e9, "B"], [1e6, "M"], [1e4, "k"]];
  for (const [size, suffix] of units) {
    if (Math.abs(value) >= size) return `${(value / size).toFixed(2).replace(/\.?0+$/, "")}${suffix}`;
  }
  return String(value);
}

export function formatQuotaDisplay(quota: number, status: SystemStatus, digits = 2): string {
  if (status.display_in_currency) return `$${(quota / status.quota_per_unit).toFixed(digits)}`;
  return formatCount(quota);
}

export function formatUnixTime(seconds: number): string {
  if (!seconds || seconds <= 0) return "-";
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
