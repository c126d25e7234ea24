// Quota-alert preferences (PUT /api/user/setting; docs/COMPATIBILITY.md, Notifications): email or webhook, the
// threshold (presets offered, any positive amount allowed), an https webhook with its secret,
// and an address for the alert mail. The server enforces every rule.
import { readNotifySettings } from "../../../../services/notify/notify-settings.ts";
import { defaultThreshold, thresholdPresets } from "../../../../services/users/notification-settings.ts";
import { TextField } from "../../../components/form-fields.tsx";
import { QuotaField } from "../../../components/quota-field.tsx";
import type { SignedInPageContext } from "../../../page-context.ts";

export function NotificationCard(props: { context: SignedInPageContext }) {
  const { context } = props;
  const { t, status } = context;
  const setting = readNotifySettings(context.user.setting);
  const threshold = setting.quotaWarningThreshold ?? defaultThreshold;
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="notify-title">
      <div class="card-body">
        <h2 id="notify-title" class="card-title" safe>
          {t("通知设置")}
        </h2>
        <form method="post" class="flex flex-col gap-3" data-api-form="PUT /api/user/setting" data-success="toast" data-keep novalidate>
          <fieldset class="flex flex-wrap gap-4">
            <legend class="label-text mb-1 text-sm" safe>
              {t("通知方式")}
            </legend>
            {(["email", "webhook"] as const).map((type) => (
              <label class="label cursor-pointer gap-2">
                <input type="radio" class="radio radio-sm" name="notify_type" value={type} checked={setting.notifyType === type} />
                <span safe>{type === "email" ? t("邮件通知") : t("Webhook 通知")}</span>
              </label>
            ))}
          </fieldset>
          <div class="flex flex-col">
            <QuotaField
              t={t}
              status={status}
              name="quota_warning_threshold"
              id="quota-warning-threshold"
              label={t("额度预警阈值")}
              value={threshold}
              min={1}
              presets={status.quota_per_unit > 0 ? thresholdPresets.map((preset) => preset / status.quota_per_unit) : []}
            />
            <span class="text-base-content/60 mt-1 block text-xs" safe>
              {t("当剩余额度低于此数值时，系统将通过选择的方式发送通知")}
            </span>
          </div>
          <TextField
            name="webhook_url"
            label={t("Webhook 地址")}
            type="url"
            value={setting.webhookUrl}
            placeholder="https://example.com/webhook"
          />
          <TextField name="webhook_secret" label={t("Webhook 密钥")} type="password" value={setting.webhookSecret} autocomplete="off" />
          <TextField
            name="notification_email"
            label={t("通知邮箱")}
            type="email"
            value={setting.notificationEmail}
            placeholder={t("留空则使用账户绑定的邮箱")}
          />
          <button type="submit" class="btn btn-primary w-fit" safe>
            {t("保存设置")}
          </button>
        </form>
      </div>
    </section>
  );
}
