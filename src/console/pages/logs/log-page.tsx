// "/log": usage logs. Filters with the lists' one default range (today in the browser's zone to
// an hour ahead, date-range-fields.tsx) and quick ranges, summary chips, the table, CSV export
// of the filtered rows, and for admins the user info behind a click on a username.
import { logCaptureFragment, logCaptureSlot } from "./log-capture.tsx";
import { nowSeconds } from "../../../clock.ts";
import { logFilterFromQuery } from "../../../services/logs/log-filter.ts";
import type { LogFilter } from "../../../services/logs/log-queries.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import { fragmentResponse, fragmentTarget } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { logExportIsland } from "../../../../islands/log-export/log-export.ts";
import { ScriptIsland } from "../../island.tsx";
import { Icon } from "../../components/icons.tsx";
import { renderPage } from "../../render-page.tsx";
import { FirstLog } from "../first-run/empty-states.tsx";
import { logUserInfoFragment } from "./log-user-info.tsx";
import {
  logColumnChoices,
  logExportLabels,
  LogPager,
  logPagerId,
  LogStatChips,
  LogStatPlaceholder,
  LogTable,
  logStatId,
  logTableId,
  logTypeOptions,
} from "./log-table.tsx";
import { ColumnChooser, hiddenColumns } from "../../components/column-chooser.tsx";
import { DateRangeFields, defaultRange } from "../../components/date-range-fields.tsx";

const resultsId = "log-results";

/** The query with the default time range filled in where the visitor gave none. */
function effectiveQuery(context: SignedInPageContext): Record<string, string> {
  const query = Object.fromEntries(context.url.searchParams);
  const range = defaultRange(nowSeconds(), context.timeZone);
  if (!context.url.searchParams.has("start_timestamp")) query.start_timestamp = String(range.start);
  if (!context.url.searchParams.has("end_timestamp")) query.end_timestamp = String(range.end);
  return query;
}

function filterOf(context: SignedInPageContext, query: Record<string, string>): LogFilter {
  const admin = isAdmin(context.user.role);
  return { ...logFilterFromQuery(query, admin), ...(admin ? {} : { userId: context.user.id }) };
}

function Field(props: { name: string; label: string; value: string }) {
  return (
    <label class="form-control w-full sm:w-44">
      <span class="label-text mb-1 block text-xs" safe>
        {props.label}
      </span>
      <input name={props.name} class="input input-bordered input-sm w-full" value={props.value} />
    </label>
  );
}

function Filters(props: { context: SignedInPageContext; query: Record<string, string> }) {
  const { context, query } = props;
  const { t } = context;
  const admin = isAdmin(context.user.role);
  const type = query.type ?? "0";
  return (
    <form
      id="log-filters"
      data-fold
      class="flex flex-wrap items-end gap-2"
      hx-get="/log"
      hx-target={`#${resultsId}`}
      hx-swap="outerHTML"
      hx-push-url="true"
    >
      <DateRangeFields
        t={t}
        idPrefix="log"
        start={query.start_timestamp ?? ""}
        end={query.end_timestamp ?? ""}
        now={nowSeconds()}
        zone={context.timeZone}
      />
      <Field name="token_name" label={t("令牌名称")} value={query.token_name ?? ""} />
      <Field name="model_name" label={t("模型名称")} value={query.model_name ?? ""} />
      <Field name="group" label={t("分组")} value={query.group ?? ""} />
      {admin ? <Field name="username" label={t("用户名称")} value={query.username ?? ""} /> : ""}
      {admin ? <Field name="channel" label={t("渠道 ID")} value={query.channel ?? ""} /> : ""}
      {admin ? <Field name="ip" label={t("IP 地址")} value={query.ip ?? ""} /> : ""}
      <label class="form-control w-full sm:w-32">
        <span class="label-text mb-1 block text-xs" safe>
          {t("类型")}
        </span>
        <select name="type" class="select select-bordered select-sm w-full">
          {logTypeOptions().map(([value, label]) => (
            <option value={String(value)} selected={type === String(value)} safe>
              {t(label)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" class="btn btn-primary btn-sm" safe>
        {t("查询")}
      </button>
      <ScriptIsland of={logExportIsland} />
      <button
        type="button"
        class="btn btn-sm"
        data-log-export={admin ? "/api/log/" : "/api/log/self/"}
        data-labels={JSON.stringify(logExportLabels(context, admin))}
        data-quota-unit={context.status.display_in_currency ? String(context.status.quota_per_unit) : "0"}
        data-empty-message={t("没有可导出的日志")}
        safe
      >
        {t("导出 CSV")}
      </button>
    </form>
  );
}

async function Results(props: { context: SignedInPageContext; filter: LogFilter }): Promise<JSX.Element> {
  const { context, filter } = props;
  // Rendered by our own component, which escapes what it shows.
  const safeTable = await LogTable({ context, filter, admin: isAdmin(context.user.role) });
  return (
    <div id={resultsId} class="flex flex-col gap-3">
      <LogStatPlaceholder context={context} />
      {safeTable}
    </div>
  );
}

export async function logPage(context: SignedInPageContext): Promise<Response> {
  const { t } = context;
  const query = effectiveQuery(context);
  const filter = filterOf(context, query);
  const target = fragmentTarget(context.request);
  const userInfo = context.url.searchParams.get("user_info");
  if (target === "log-user-slot" && userInfo) return logUserInfoFragment(context, Number(userInfo));
  const captured = context.url.searchParams.get("capture");
  if (target === logCaptureSlot && captured) return logCaptureFragment(context, Number(captured));
  if (target === logStatId) return fragmentResponse(context, await LogStatChips({ context, filter }));
  if (target === logPagerId) return fragmentResponse(context, await LogPager({ context, filter }));
  if (target === logTableId) return fragmentResponse(context, await LogTable({ context, filter, admin: isAdmin(context.user.role) }));
  if (target === resultsId) return fragmentResponse(context, await Results({ context, filter }));
  // Rendered by our own component, which escapes what it shows.
  const safeResults = await Results({ context, filter });
  const safeFirstLog = await FirstLog({ context });
  return renderPage(
    context,
    { title: t("日志"), htmx: true },
    <div class="flex flex-col gap-4">
      {safeFirstLog}
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body gap-3 p-4">
          {/* On a phone the filters fold behind one button (app.css [data-fold]). */}
          <button
            type="button"
            class="btn btn-sm self-start min-[601px]:hidden"
            data-action="toggle-fold"
            aria-controls="log-filters"
            aria-expanded="false"
          >
            <Icon name="filter" class="size-4" />
            <span safe>{t("筛选")}</span>
          </button>
          <Filters context={context} query={query} />
          <div class="flex justify-end">
            <ColumnChooser
              t={t}
              table={logTableId}
              columns={logColumnChoices(context, isAdmin(context.user.role))}
              hidden={hiddenColumns(context, logTableId)}
            />
          </div>
          {safeResults}
        </div>
      </div>
      <div id="log-user-slot"></div>
      <div id={logCaptureSlot}></div>
    </div>,
  );
}
