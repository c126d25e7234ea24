// "/topup": the wallet. The balance, redeem form and online top-up are the
// wallet island; the page adds the user's recent orders and, after the payment page sends the
// browser back, the state of that order as the store knows it (display only: only the
// provider's signed notification credits an order).
import { optionBool } from "../../services/options/options.ts";
import { findUserTopUp, recentTopUps, type TopUpRow } from "../../services/topup/topup-orders.ts";
import { minimumTopUp, onlineTopUpEnabled } from "../../services/topup/topup-quote.ts";
import { walletIsland } from "../../../islands/wallet/wallet.tsx";
import { DataTable } from "../components/data-table.tsx";
import { formatPaidAmount, formatQuotaDisplay } from "../format.ts";
import { Island } from "../island.tsx";
import type { SignedInPageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";
import { LocalTime } from "../components/local-time.tsx";

const orderStates: Record<string, { label: string; alert: string }> = {
  success: { label: "充值成功", alert: "alert-success" },
  pending: { label: "等待支付结果，请稍后刷新页面", alert: "alert-info" },
  review: { label: "订单信息与支付结果不符，等待管理员审核", alert: "alert-warning" },
  failed: { label: "支付失败", alert: "alert-error" },
};

function ReturnedOrder(props: { context: SignedInPageContext; order: TopUpRow | undefined }) {
  const { t } = props.context;
  if (!props.order) return "";
  const state = orderStates[props.order.status] ?? orderStates.pending!;
  return (
    <div role="status" class={`alert ${state.alert}`}>
      <span safe>{t("订单 {{tradeNo}}：{{state}}", { tradeNo: props.order.trade_no, state: t(state.label) })}</span>
    </div>
  );
}

function OrderTable(props: { context: SignedInPageContext; orders: TopUpRow[] }) {
  const { context } = props;
  const { t, status } = context;
  return (
    <DataTable
      id="topup-orders"
      t={t}
      url={context.url}
      rows={props.orders}
      emptyText={t("暂无充值记录")}
      columns={[
        {
          header: t("订单号"),
          cell: (row) => (
            <span class="font-mono text-xs" safe>
              {row.trade_no}
            </span>
          ),
        },
        { header: t("充值额度"), cell: (row) => formatQuotaDisplay(row.quota, status) },
        { header: t("实付金额"), cell: (row) => formatPaidAmount(row.money) },
        { header: t("支付方式"), cell: (row) => <span safe>{t(row.payment_method === "wxpay" ? "微信" : "支付宝")}</span> },
        { header: t("状态"), cell: (row) => <span safe>{t(orderStates[row.status]?.label ?? row.status)}</span> },
        { header: t("创建时间"), cell: (row) => <LocalTime seconds={row.create_time} zone={context.timeZone} /> },
      ]}
    />
  );
}

export async function topUpPage(context: SignedInPageContext): Promise<Response> {
  const { t, user: me, status, language } = context;
  const tradeNo = context.url.searchParams.get("trade_no");
  const [returned, orders] = await Promise.all([tradeNo ? findUserTopUp(me.id, tradeNo) : undefined, recentTopUps(me.id)]);
  return renderPage(
    context,
    { title: t("钱包") },
    <div class="flex flex-col gap-4">
      <ReturnedOrder context={context} order={returned} />
      <Island
        of={walletIsland}
        props={{
          language,
          quota: me.quota,
          quotaPerUnit: status.quota_per_unit,
          displayInCurrency: optionBool("DisplayInCurrencyEnabled"),
          topUpLink: status.top_up_link,
          onlineEnabled: onlineTopUpEnabled(),
          minTopUp: minimumTopUp(),
        }}
      />
      <section class="card bg-base-100 shadow-sm" aria-labelledby="orders-title">
        <div class="card-body">
          <h2 id="orders-title" class="card-title" safe>
            {t("充值记录")}
          </h2>
          <OrderTable context={context} orders={orders} />
        </div>
      </section>
    </div>,
  );
}
