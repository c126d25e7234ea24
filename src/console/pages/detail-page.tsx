// "/detail": the usage dashboard, shown when the admin enabled it. The
// island gets the default range's rollups with the page: the last day by hour, the last week by
// day, the last four weeks by week (DataExportDefaultTime chooses).
import { dashboardIsland } from "../../../islands/dashboard/dashboard.tsx";
import { granularitySpans, type Granularity } from "../../../islands/dashboard/usage-series.ts";
import { nowSeconds } from "../../clock.ts";
import { allQuotaData, userQuotaData } from "../../services/dashboard/quota-data.ts";
import { lastRollupTime, refreshQuotaDataIfStale, rollupIntervalMinutes } from "../../services/dashboard/quota-rollup.ts";
import { logger } from "../../logger.ts";
import { optionBool, optionText } from "../../services/options/options.ts";
import { isAdmin } from "../../services/users/roles.ts";
import { Island } from "../island.tsx";
import type { SignedInPageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export async function detailPage(context: SignedInPageContext): Promise<Response> {
  const { t, user: me, status, language } = context;
  if (!optionBool("DataExportEnabled")) {
    return renderPage(
      context,
      { title: t("数据看板") },
      <div role="alert" class="alert alert-info">
        <span safe>{t("管理员未开启数据看板")}</span>
      </div>,
    );
  }
  const configured = optionText("DataExportDefaultTime");
  const granularity: Granularity = configured === "day" || configured === "week" ? configured : "hour";
  const end = nowSeconds() + 3600;
  const start = end - 3600 - granularitySpans[granularity];
  const admin = isAdmin(me.role);
  const range = { start_timestamp: start, end_timestamp: end };
  // A failed refresh still shows the rollups there are, with their age.
  const rolledUpAt = await refreshQuotaDataIfStale().catch(async (error) => {
    logger.warn("dashboard refresh on open failed", { error: String(error) });
    return lastRollupTime();
  });
  const rows = admin ? await allQuotaData(range) : await userQuotaData(me.id, range);
  return renderPage(
    context,
    { title: t("数据看板") },
    <Island
      of={dashboardIsland}
      props={{
        language,
        isAdmin: admin,
        granularity,
        start,
        end,
        rows: rows.map(({ id: _id, ...row }) => row),
        balance: me.quota,
        usedQuota: me.used_quota,
        quotaPerUnit: status.quota_per_unit,
        displayInCurrency: status.display_in_currency,
        rolledUpAt: rolledUpAt ?? 0,
        rollupMinutes: rollupIntervalMinutes(),
      }}
    />,
  );
}
