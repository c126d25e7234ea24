// Number and quota formats shared by pages and islands (spec §9): currency = quota /
// QuotaPerUnit when the site displays currency; counts shortened to k, M, B. A non-zero amount
// never reads as zero: small amounts get the decimals their first two significant digits need
// ($0.0042, not $0.00). Pure functions without server imports, so islands can use them too.

export type MoneyDisplay = { display_in_currency: boolean; quota_per_unit: number };

export function formatCount(value: number): string {
  const units: [number, string][] = [[1e9, "B"], [1e6, "M"], [1e4, "k"]];
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

export function formatDollars(amount: number, digits = 2): string {
  return `$${formatAmount(amount, digits)}`;
}

export function formatQuotaDisplay(quota: number, status: MoneyDisplay, digits = 2): string {
  if (status.display_in_currency && status.quota_per_unit > 0) return formatDollars(quota / status.quota_per_unit, digits);
  return formatCount(quota);
}

export function formatUnixTime(seconds: number): string {
  if (!seconds || seconds <= 0) return "-";
  const date = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
}
