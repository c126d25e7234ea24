/** @jsxImportSource react */
// The usage dashboard : stat cards with trend lines (stat-cards.tsx),
// consumption by model over time, calls by model, and, for admins, consumption by user;
// granularity hour, day or week; admins see everyone or filter by one user and may refresh the
// rollups at once. The first data comes with the page; changes of range, granularity or user
// reload from /api/data/ (recent hours are read from the logs, so new calls show at once). The
// charts follow the console's theme, also when it is toggled on the page.
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { apiCall } from "../../console-runtime/api-client.ts";
import { showToast } from "../../console-runtime/toasts.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { moneyTranslator, type MoneyTranslate } from "../shared/money-translator.ts";
import {
  granularitySpans,
  perMinute,
  quotaByModelOverTime,
  totals,
  totalsBy,
  totalsOverTime,
  type Granularity,
  type UsageRow,
} from "./usage-series.ts";
import { formatDollars } from "../../src/console/format.ts";
import { formatLocalTime, parseLocalTime } from "../../console-runtime/local-time.ts";
import { DateTimeInput } from "../shared/date-time-input.tsx";
import { currentTheme } from "../../console-runtime/preferences.ts";
import { StatCards } from "./stat-cards.tsx";
import { defineIsland } from "../island-definition.ts";

export type DashboardProps = {
  language: Language;
  isAdmin: boolean;
  granularity: Granularity;
  /** Unix seconds. */
  start: number;
  end: number;
  rows: UsageRow[];
  /** The signed-in user's own balance and all they used (quota units). */
  balance: number;
  usedQuota: number;
  quotaPerUnit: number;
  displayInCurrency: boolean;
  /** When the rollups were last refreshed (unix seconds, 0 unknown) and how often they are. */
  rolledUpAt: number;
  rollupMinutes: number;
};

type ChartOption = Record<string, unknown>;
type ChartLibrary = typeof import("./echarts-setup.ts");

/**
 * How the browser loads echarts, set by the island's browser entry (dashboard.island.tsx). The
 * server renders this component too (for the first paint) but never draws a chart, so the
 * executable's bundle must not carry the charting library's megabyte and a half: this file
 * names it only as a type.
 */
let loadChartLibrary: (() => Promise<ChartLibrary>) | undefined;

export function provideChartLibrary(load: () => Promise<ChartLibrary>): void {
  loadChartLibrary = load;
}

type Theme = "light" | "dark";

/** The console's theme (preferences.ts), followed as the toggle or the system changes it. */
function useTheme(): Theme {
  const [theme, setTheme] = useState<Theme>("light");
  useEffect(() => {
    const update = () => setTheme(currentTheme());
    update();
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    const system = window.matchMedia("(prefers-color-scheme: dark)");
    system.addEventListener("change", update);
    return () => {
      observer.disconnect();
      system.removeEventListener("change", update);
    };
  }, []);
  return theme;
}

/** One echarts chart; the library is loaded on first use. echarts' dark theme on a clear ground. */
function Chart(props: { option: ChartOption; label: string; testId: string; theme: Theme }) {
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let disposed = false;
    let chart: { setOption(option: ChartOption, replace: boolean): void; resize(): void; dispose(): void } | undefined;
    const resize = () => chart?.resize();
    void loadChartLibrary?.().then(({ echarts }) => {
      if (disposed || !element.current) return;
      chart = echarts.init(element.current, props.theme === "dark" ? "dark" : undefined, { renderer: "svg" });
      chart.setOption({ ...props.option, backgroundColor: "transparent" }, true);
      element.current.dataset.drawn = "true";
      element.current.dataset.theme = props.theme;
      window.addEventListener("resize", resize);
    });
    return () => {
      disposed = true;
      window.removeEventListener("resize", resize);
      chart?.dispose();
      if (element.current) element.current.dataset.drawn = "false";
    };
  }, [props.option, props.theme]);
  return <div ref={element} role="img" aria-label={props.label} data-testid={props.testId} className="h-80 w-full" />;
}

// The console's one date format (local-time.ts), not the browser's locale format.
const toInput = formatLocalTime;
const fromInput = (value: string) => parseLocalTime(value) ?? Math.floor(new Date(value).getTime() / 1000);

function options(rows: UsageRow[], granularity: Granularity, props: DashboardProps, t: MoneyTranslate) {
  // Significant digits, not fixed decimals: a day of tiny calls must not chart as zero.
  const money = (quota: number) => (props.displayInCurrency ? Number((quota / props.quotaPerUnit).toPrecision(6)) : quota);
  const overTime = quotaByModelOverTime(rows, granularity);
  const byModel = totalsBy(rows, (row) => row.model_name);
  const byUser = totalsBy(rows, (row) => row.username || String(row.user_id)).slice(0, 10);
  const tooltip = { trigger: "axis" };
  return {
    models: {
      tooltip,
      legend: { type: "scroll", top: 0 },
      grid: { left: 48, right: 16, top: 40, bottom: 32 },
      xAxis: { type: "category", data: overTime.buckets },
      yAxis: { type: "value" },
      series: overTime.models.map((model) => ({ name: model.name, type: "bar", stack: "quota", data: model.values.map(money) })),
    },
    calls: {
      tooltip: { trigger: "item" },
      legend: { type: "scroll", bottom: 0 },
      series: [
        {
          name: t("调用次数"),
          type: "pie",
          radius: ["35%", "65%"],
          data: byModel.map((entry) => ({ name: entry.name, value: entry.totals.count })),
        },
      ],
    },
    users: {
      tooltip,
      grid: { left: 96, right: 16, top: 16, bottom: 24 },
      xAxis: { type: "value" },
      yAxis: { type: "category", data: byUser.map((entry) => entry.name).reverse() },
      series: [{ name: t("消耗额度"), type: "bar", data: byUser.map((entry) => money(entry.totals.quota)).reverse() }],
    },
  };
}

export function Dashboard(props: DashboardProps) {
  const t = moneyTranslator(props.language);
  const [rows, setRows] = useState(props.rows);
  const [granularity, setGranularity] = useState<Granularity>(props.granularity);
  // Filled after hydration: the fields show the browser's local time, which the server cannot know.
  const [start, setStart] = useState("");
  const [end, setEnd] = useState("");
  useEffect(() => {
    setStart(toInput(props.start));
    setEnd(toInput(props.end));
  }, [props.start, props.end]);
  const [username, setUsername] = useState("");
  const [rolledUpAt, setRolledUpAt] = useState(props.rolledUpAt);
  // Shown in the browser's time zone, so only after hydration (the server cannot know it).
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [busy, setBusy] = useState(false);
  const [account, setAccount] = useState({ balance: props.balance, used: props.usedQuota });
  const theme = useTheme();
  const startField = useId();
  const endField = useId();

  // The range of the rows shown (the RPM and TPM cards divide by it).
  const [queried, setQueried] = useState({ start: props.start, end: props.end });

  const load = async (range?: { start: number; end: number }) => {
    setBusy(true);
    const chosen = {
      start: range?.start ?? (start ? fromInput(start) : props.start),
      end: range?.end ?? (end ? fromInput(end) : props.end),
    };
    const query = new URLSearchParams({ start_timestamp: String(chosen.start), end_timestamp: String(chosen.end) });
    if (props.isAdmin && username.trim()) query.set("username", username.trim());
    try {
      const [envelope, self] = await Promise.all([
        apiCall<UsageRow[]>("GET", `/api/data/${props.isAdmin ? "" : "self"}?${query}`),
        apiCall<{ quota: number; used_quota: number }>("GET", "/api/user/self"),
      ]);
      setRows(envelope.data ?? []);
      setQueried(chosen);
      if (self.data) setAccount({ balance: self.data.quota, used: self.data.used_quota });
    } catch {
      // apiCall showed why.
    } finally {
      setBusy(false);
    }
  };

  const refresh = async () => {
    try {
      const envelope = await apiCall<{ at?: number }>("POST", "/api/data/refresh");
      if (envelope.message) showToast(envelope.message, "success");
      if (envelope.data?.at) setRolledUpAt(envelope.data.at);
      await load();
    } catch {
      // apiCall showed why.
    }
  };

  // A coarser granularity needs a longer range to be worth a chart: the range follows the choice
  // (ending where it ended), like the page's default range follows DataExportDefaultTime.
  const changeGranularity = (chosen: Granularity) => {
    setGranularity(chosen);
    const rangeEnd = end ? fromInput(end) : props.end;
    const rangeStart = rangeEnd - 3600 - granularitySpans[chosen];
    setStart(toInput(rangeStart));
    void load({ start: rangeStart, end: rangeEnd });
  };

  const sum = totals(rows);
  const charts = useMemo(() => options(rows, granularity, props, t), [rows, granularity, props, t]);
  const trend = useMemo(() => totalsOverTime(rows, granularity).totals, [rows, granularity]);
  const money = (quota: number) => (props.displayInCurrency ? formatDollars(quota / props.quotaPerUnit) : String(quota));
  // The server renders "now" as the page's time; the browser's clock takes over after hydration.
  const rate = perMinute(sum, queried.start, queried.end, hydrated ? Math.floor(Date.now() / 1000) : props.end - 3600);

  return (
    <div className="flex flex-col gap-4">
      <form
        className="card bg-base-100 shadow-sm"
        onSubmit={(event) => {
          event.preventDefault();
          void load();
        }}
      >
        <div className="card-body flex-row flex-wrap items-end gap-3">
          <div className="form-control">
            <label htmlFor={startField} className="label-text mb-1 block text-sm">
              {t("起始时间")}
            </label>
            <DateTimeInput id={startField} value={start} onChange={setStart} pickLabel={t("选择日期和时间")} />
          </div>
          <div className="form-control">
            <label htmlFor={endField} className="label-text mb-1 block text-sm">
              {t("结束时间")}
            </label>
            <DateTimeInput id={endField} value={end} onChange={setEnd} pickLabel={t("选择日期和时间")} />
          </div>
          <label className="form-control">
            <span className="label-text mb-1 block text-sm">{t("时间粒度")}</span>
            <select
              className="select select-bordered select-sm"
              value={granularity}
              onChange={(event) => changeGranularity(event.target.value as Granularity)}
            >
              <option value="hour">{t("小时")}</option>
              <option value="day">{t("天")}</option>
              <option value="week">{t("周")}</option>
            </select>
          </label>
          {props.isAdmin ? (
            <label className="form-control">
              <span className="label-text mb-1 block text-sm">{t("用户名称")}</span>
              <input
                className="input input-bordered input-sm"
                value={username}
                placeholder={t("全部用户")}
                onChange={(event) => setUsername(event.target.value)}
              />
            </label>
          ) : null}
          <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
            {t("查询")}
          </button>
          {props.isAdmin ? (
            <button type="button" className="btn btn-sm" onClick={() => void refresh()}>
              {t("立即更新数据")}
            </button>
          ) : null}
        </div>
      </form>
      <p className="text-base-content/60 text-sm" data-testid="rollup-note">
        {hydrated && rolledUpAt > 0
          ? t("最近的调用即时计入；更早的数据汇总于 {{time}}，每 {{minutes}} 分钟汇总一次", {
              time: formatLocalTime(rolledUpAt),
              minutes: props.rollupMinutes,
            })
          : t("最近的调用即时计入；更早的数据每 {{minutes}} 分钟汇总一次", { minutes: props.rollupMinutes })}
      </p>
      <StatCards
        t={t}
        money={money}
        balance={account.balance}
        usedQuota={account.used}
        sum={sum}
        rate={rate}
        trend={trend}
        granularity={granularity}
      />
      {rows.length === 0 ? (
        <div role="status" className="alert">
          <span>{t("所选时间内没有数据")}</span>
        </div>
      ) : (
        <div className="grid gap-4 xl:grid-cols-2">
          <section className="card bg-base-100 shadow-sm xl:col-span-2">
            <div className="card-body">
              <h2 className="card-title text-base">{t("模型消耗分布")}</h2>
              <Chart option={charts.models} label={t("模型消耗分布")} testId="chart-models" theme={theme} />
            </div>
          </section>
          <section className="card bg-base-100 shadow-sm">
            <div className="card-body">
              <h2 className="card-title text-base">{t("模型调用次数占比")}</h2>
              <Chart option={charts.calls} label={t("模型调用次数占比")} testId="chart-calls" theme={theme} />
            </div>
          </section>
          {props.isAdmin ? (
            <section className="card bg-base-100 shadow-sm">
              <div className="card-body">
                <h2 className="card-title text-base">{t("用户消耗排行")}</h2>
                <Chart option={charts.users} label={t("用户消耗排行")} testId="chart-users" theme={theme} />
              </div>
            </section>
          ) : null}
        </div>
      )}
    </div>
  );
}

/** The island's one declaration (island-definition.ts): rendered by /detail, mounted by dashboard.island.tsx. */
export const dashboardIsland = defineIsland("dashboard", Dashboard);
