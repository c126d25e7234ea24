/** @jsxImportSource react */
// The dashboard's stat cards, as new-api's: the balance (and what was used in all), then the
// range's quota, calls and tokens, and its average requests and tokens per minute, each with a
// trend line over the chart's buckets. The lines are plain SVG in the text colour, so they follow
// the theme without a charting library.
import { bucketSeconds, type Granularity, type Totals } from "./usage-series.ts";

export type StatCardsProps = {
  t: (key: string, params?: Record<string, unknown>) => string;
  money: (quota: number) => string;
  balance: number;
  usedQuota: number;
  sum: Totals;
  rate: { rpm: number; tpm: number };
  trend: Totals[];
  granularity: Granularity;
};

/** A line through the values, scaled to the box; one value draws a level line. */
export function Sparkline(props: { values: number[]; testId: string }) {
  const width = 120;
  const height = 32;
  const values = props.values.length === 1 ? [props.values[0]!, props.values[0]!] : props.values;
  const highest = Math.max(...values, 0);
  const points = values
    .map((value, index) => {
      const x = values.length > 1 ? (index / (values.length - 1)) * width : 0;
      const y = highest > 0 ? height - 2 - (value / highest) * (height - 4) : height - 2;
      return `${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(" ");
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      className="text-primary h-8 w-full"
      aria-hidden="true"
      data-testid={props.testId}
      data-points={values.length}
    >
      {values.length > 0 ? (
        <polyline points={points} fill="none" stroke="currentColor" strokeWidth="2" vectorEffect="non-scaling-stroke" />
      ) : null}
    </svg>
  );
}

function Card(props: { label: string; value: string; testId: string; note?: string; trend?: number[] }) {
  return (
    <div className="card bg-base-100 shadow-sm">
      <div className="card-body gap-1 p-4">
        <div className="text-base-content/60 text-sm">{props.label}</div>
        <div className="text-2xl font-semibold" data-testid={props.testId}>
          {props.value}
        </div>
        {props.note ? <div className="text-base-content/60 text-xs">{props.note}</div> : null}
        {props.trend ? <Sparkline values={props.trend} testId={`${props.testId}-trend`} /> : null}
      </div>
    </div>
  );
}

const rate = (value: number) => (value === 0 ? "0" : value >= 100 ? value.toFixed(0) : value.toFixed(3).replace(/\.?0+$/, ""));

export function StatCards(props: StatCardsProps) {
  const { t, trend } = props;
  const minutes = bucketSeconds[props.granularity] / 60;
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-3 2xl:grid-cols-6">
      <Card
        label={t("当前余额")}
        value={props.money(props.balance)}
        testId="balance"
        note={t("历史消耗 {{amount}}", { amount: props.money(props.usedQuota) })}
      />
      <Card label={t("消耗额度")} value={props.money(props.sum.quota)} testId="total-quota" trend={trend.map((bucket) => bucket.quota)} />
      <Card label={t("调用次数")} value={String(props.sum.count)} testId="total-count" trend={trend.map((bucket) => bucket.count)} />
      <Card label={t("Token 总数")} value={String(props.sum.tokens)} testId="total-tokens" trend={trend.map((bucket) => bucket.tokens)} />
      <Card label={t("平均 RPM")} value={rate(props.rate.rpm)} testId="average-rpm" trend={trend.map((bucket) => bucket.count / minutes)} />
      <Card
        label={t("平均 TPM")}
        value={rate(props.rate.tpm)}
        testId="average-tpm"
        trend={trend.map((bucket) => bucket.tokens / minutes)}
      />
    </div>
  );
}
