// The operation tab's log and payment sections. Log cleanup deletes entries older than a chosen
// day (DELETE /api/log/?target_timestamp=); payment needs the server address first, because the
// payment gateway calls back to it (spec §5 Settings).
import { optionText } from "../../../services/options/options.ts";
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionTextarea, OptionToggle } from "./option-fields.tsx";

/** The day one month before today, as yyyy-MM-dd (spec §9: the cleanup's default date). */
function monthAgo(): string {
  const date = new Date();
  date.setMonth(date.getMonth() - 1);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

export function LogSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-logs" title={t("日志设置")}>
      <OptionToggle context={context} name="LogConsumeEnabled" label={t("启用额度消费日志记录")} />
      <div class="flex flex-wrap items-end gap-2">
        <label class="form-control">
          <span class="label-text mb-1 block text-sm" safe>{t("日志记录时间")}</span>
          <input id="log-cleanup-date" class="input input-bordered" type="date" value={monthAgo()} />
        </label>
        <button
          type="button"
          class="btn btn-error btn-outline"
          data-log-cleanup
          data-date-input="#log-cleanup-date"
          data-empty-message={t("请选择日志记录时间")}
          data-confirm={t("确定要清除该日期之前的所有日志吗？此操作不可恢复。")}
          safe
        >
          {t("清除历史日志")}
        </button>
      </div>
    </OptionSection>
  );
}

export function PaymentSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  const serverAddress = optionText("ServerAddress");
  return (
    <OptionSection context={context} id="operation-payment" title={t("支付设置")}>
      {serverAddress ? (
        <p class="text-base-content/70 text-sm" safe>
          {t("支付回调地址：{{address}}", { address: `${optionText("CustomCallbackAddress") || serverAddress}/api/user/epay/notify` })}
        </p>
      ) : (
        <div role="alert" class="alert alert-warning">
          <span safe>{t("请先填写服务器地址")}</span>
          <a href="/setting?tab=system" class="link" safe>{t("系统设置")}</a>
        </div>
      )}
      <FieldGrid>
        <OptionInput context={context} name="PayAddress" label={t("支付地址")} placeholder={t("例如：https://yourdomain.com")} type="url" />
        <OptionInput context={context} name="EpayId" label={t("易支付商户ID")} />
        <OptionInput context={context} name="EpayKey" label={t("易支付商户密钥")} />
        <OptionInput context={context} name="CustomCallbackAddress" label={t("回调地址")} hint={t("留空则使用服务器地址")} placeholder={t("例如：https://yourdomain.com")} type="url" />
        <OptionInput context={context} name="Price" label={t("充值价格（x元/美金）")} type="number" />
        <OptionInput context={context} name="MinTopUp" label={t("最低充值美元数量")} type="number" />
      </FieldGrid>
      <OptionTextarea
        context={context}
        name="TopupGroupRatio"
        label={t("充值分组倍率")}
        hint={t("为一个 JSON 文本，键为组名称，值为倍率")}
        json
        jsonMessage="充值分组倍率不是合法的 JSON 字符串"
        rows={4}
      />
    </OptionSection>
  );
}
