// The operation tab's log and payment sections. Log cleanup deletes entries older than a chosen
// day (DELETE /api/log/?target_timestamp=); payment needs the server address first, because the
// payment gateway calls back to it.
import { optionText } from "../../../services/options/options.ts";
import { DateTimeField } from "../../components/date-time-field.tsx";
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionTextarea, OptionToggle } from "./option-fields.tsx";

/** The cleanup's default: a month back, at midnight of the server's day (the browser shows it in its own zone). */
function monthAgo(): number {
  const date = new Date();
  date.setMonth(date.getMonth() - 1);
  date.setHours(0, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

export function LogSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="operation-logs" title={t("日志设置")}>
      <OptionToggle context={context} name="LogConsumeEnabled" label={t("启用额度消费日志记录")} />
      <OptionToggle context={context} name="ErrorLogEnabled" label={t("记录被拒绝和失败的调用（错误日志）")} />
      <OptionToggle context={context} name="ResponsesStoreEnabled" label={t("保存 Responses API 的响应（store）")} />
      <OptionToggle
        context={context}
        name="RequestCaptureEnabled"
        label={t("允许请求记录（管理员为令牌或用户限时开启；关闭即结束所有记录并删除已保存的内容）")}
      />
      <FieldGrid>
        <OptionInput
          context={context}
          name="ErrorLogRetentionDays"
          label={t("错误日志保留天数")}
          hint={t("更早的错误日志每小时自动删除；0 表示不自动删除")}
          type="number"
        />
        <OptionInput
          context={context}
          name="AuditRetentionDays"
          label={t("审计日志保留天数")}
          hint={t("更早的审计记录每小时自动删除；0 表示永久保留")}
          type="number"
        />
        <OptionInput context={context} name="ResponsesRetentionDays" label={t("响应保存天数")} type="number" />
        <OptionInput
          context={context}
          name="RequestCaptureRetentionDays"
          label={t("请求记录保存天数")}
          hint={t("请求和响应内容保存的天数，到期自动删除")}
          type="number"
        />
        <OptionInput
          context={context}
          name="ResponsesStoreUserLimitMB"
          label={t("每个用户最多保存（MB）")}
          hint={t("超出时最早的响应先被删除")}
          type="number"
        />
      </FieldGrid>
      <div class="flex flex-wrap items-end gap-2">
        {/* The console's one date format and picker (a native date field shows the browser's). */}
        <div class="form-control">
          <label class="label-text mb-1 block text-sm" for="log-cleanup-date" safe>
            {t("日志记录时间")}
          </label>
          <DateTimeField t={t} id="log-cleanup-date" name="log_cleanup_date" unix={monthAgo()} />
        </div>
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
          <a href="/setting?tab=system" class="link" safe>
            {t("系统设置")}
          </a>
        </div>
      )}
      <FieldGrid>
        <OptionInput context={context} name="PayAddress" label={t("支付地址")} placeholder={t("例如：https://yourdomain.com")} type="url" />
        <OptionInput context={context} name="EpayId" label={t("易支付商户ID")} />
        <OptionInput context={context} name="EpayKey" label={t("易支付商户密钥")} />
        <OptionInput
          context={context}
          name="CustomCallbackAddress"
          label={t("回调地址")}
          hint={t("留空则使用服务器地址")}
          placeholder={t("例如：https://yourdomain.com")}
          type="url"
        />
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
