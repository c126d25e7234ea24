// The token drawer's budget per period and its rate and concurrency limits (issue 27). Every
// limit is a number with 0 for none; the server checks them (token-input.ts).
import { QuotaField } from "../../components/quota-field.tsx";
import type { PageContext } from "../../page-context.ts";
import type { TokenRow, TokenView } from "../../../services/tokens/token-queries.ts";
import { formatQuotaDisplay, formatUnixTime } from "../../format.ts";

const periods: [string, string][] = [
  ["", "不按周期"],
  ["day", "每天"],
  ["week", "每周"],
  ["month", "每月"],
];

function LimitInput(props: { context: PageContext; name: string; label: string; value: number }) {
  const id = `token-${props.name.replaceAll("_", "-")}`;
  return (
    <div class="form-control w-full">
      <label class="label-text mb-1 block text-sm" for={id} safe>
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type="number"
        min="0"
        step="1"
        class="input input-bordered w-full"
        data-json-type="number"
        value={String(props.value)}
      />
    </div>
  );
}

export function TokenLimitFields(props: { context: PageContext; token: TokenRow | undefined }) {
  const { context, token } = props;
  const { t, status } = context;
  const current = token?.quota_period ?? "";
  return (
    <fieldset class="fieldset border-base-300 rounded border p-2">
      <legend class="px-1 text-sm" safe>
        {t("周期额度与速率限制")}
      </legend>
      <label class="form-control w-full">
        <span class="label-text mb-1 block text-sm" safe>
          {t("额度周期")}
        </span>
        <select name="quota_period" class="select select-bordered w-full">
          {periods.map(([value, label]) => (
            <option value={value} selected={current === value} safe>
              {t(label)}
            </option>
          ))}
        </select>
      </label>
      <QuotaField
        t={t}
        status={status}
        name="period_quota"
        id="token-period-quota"
        label={t("每周期额度（0 为不限）")}
        value={Number(token?.period_quota ?? 0)}
        min={0}
        presets={[]}
      />
      <div class="grid grid-cols-1 gap-2 sm:grid-cols-3">
        <LimitInput context={context} name="rpm_limit" label={t("每分钟请求数（RPM）")} value={Number(token?.rpm_limit ?? 0)} />
        <LimitInput context={context} name="tpm_limit" label={t("每分钟 token 数（TPM）")} value={Number(token?.tpm_limit ?? 0)} />
        <LimitInput context={context} name="concurrency_limit" label={t("同时请求数")} value={Number(token?.concurrency_limit ?? 0)} />
      </div>
      <p class="text-base-content/60 text-xs" safe>
        {t("0 表示不限制；周期按网关所在时区的自然日、周（周一起）和月计算")}
      </p>
    </fieldset>
  );
}

const periodNames: Record<string, string> = { day: "今日", week: "本周", month: "本月" };

/** The token list's cell: what the period used of its budget, as a bar, and when it resets. */
export function PeriodUsage(props: { context: PageContext; token: TokenView }) {
  const { t, status } = props.context;
  const { token } = props;
  const quota = Number(token.period_quota);
  if (!token.quota_period || quota <= 0) return <span class="text-base-content/50">-</span>;
  const used = Number(token.period_used_quota);
  const share = used / quota;
  const tone = share >= 1 ? "progress-error" : share >= 0.8 ? "progress-warning" : "progress-success";
  const label = t("{{period}} {{used}} / {{quota}}", {
    period: t(periodNames[token.quota_period] ?? token.quota_period),
    used: formatQuotaDisplay(used, status),
    quota: formatQuotaDisplay(quota, status),
  });
  return (
    <div class="flex min-w-28 flex-col gap-1" title={t("重置于 {{time}}", { time: formatUnixTime(token.period_reset_at) })}>
      <span class="text-xs whitespace-nowrap" safe>
        {label}
      </span>
      <progress class={`progress ${tone} h-1.5 w-full`} value={String(Math.min(used, quota))} max={String(quota)} aria-label={label} />
    </div>
  );
}
