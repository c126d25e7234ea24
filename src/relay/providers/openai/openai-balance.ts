// The balance of an OpenAI-style account from the legacy dashboard billing API: the hard limit
// minus this month's usage (usage is in cents). Used by OpenAI and Custom channels.
import type { BalanceQuery, UpstreamTarget } from "../adaptor.ts";

const day = (seconds: number) => new Date(seconds * 1000).toISOString().slice(0, 10);

export function dashboardBalance(
  apiRoot: (target: UpstreamTarget) => string,
  headers: (target: UpstreamTarget) => Record<string, string>,
): BalanceQuery {
  return {
    requests(target, nowSeconds) {
      const root = apiRoot(target);
      const monthStart = new Date(nowSeconds * 1000);
      monthStart.setUTCDate(1);
      const start = day(Math.floor(monthStart.getTime() / 1000));
      const end = day(nowSeconds + 86_400);
      return [
        { url: `${root}/dashboard/billing/subscription`, method: "GET", headers: headers(target) },
        { url: `${root}/dashboard/billing/usage?start_date=${start}&end_date=${end}`, method: "GET", headers: headers(target) },
      ];
    },
    parse([subscription, usage]) {
      const limit = Number(JSON.parse(subscription ?? "{}").hard_limit_usd);
      const used = Number(JSON.parse(usage ?? "{}").total_usage ?? 0);
      if (!Number.isFinite(limit)) throw new Error("no hard_limit_usd in the subscription answer");
      return limit - (Number.isFinite(used) ? used : 0) / 100;
    },
  };
}
