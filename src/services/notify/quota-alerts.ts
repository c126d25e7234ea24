// Low-balance alerts, at most one per user every 2 hours (docs/COMPATIBILITY.md, Notifications). The
// relay's settlement calls checkQuotaAlert after a user's quota went down. When the quota is
// below the user's threshold (or the site's QuotaRemindThreshold), the user hears about it by
// email or webhook, at most once per two hours across every instance (a shared mark).
//
// The caller is on a request's path, so this never takes long: it reads one row and sets the
// mark, and the message itself is sent in the background with its own timeouts. It never throws.
import { Html } from "@kitajs/html";
import { and, eq, isNull } from "drizzle-orm";
import { shared } from "../../cache/open-shared-state.ts";
import { logger } from "../../logger.ts";
import { db, t } from "../../store/client.ts";
import { optionNumber, optionText } from "../options/options.ts";
import { formatQuota } from "../pricing/quota-format.ts";
import { UserStatus } from "../users/roles.ts";
import { sendMail } from "./mailer.ts";
import { readNotifySettings, type NotifySettings } from "./notify-settings.ts";
import { fillValues, sendWebhook, type NotifyMessage } from "./webhook.ts";

const alertPeriodSeconds = 2 * 3600;

type AlertUser = { id: number; quota: number; email: string; setting: string };

function quotaMessage(quota: number): NotifyMessage {
  const title = "您的额度即将用尽"; // i18n-exempt: message text sent to the user's own systems
  const topUpLink = `${optionText("ServerAddress")}/topup`;
  return {
    type: "quota_exceed",
    title,
    content: "{{value}}，当前剩余额度为 {{value}}，为了不影响您的使用，请及时充值。<br/>充值链接：<a href='{{value}}'>{{value}}</a>", // i18n-exempt: message text sent to the user's own systems
    values: [title, formatQuota(quota), topUpLink, topUpLink],
  };
}

/** Where the alert goes, or undefined when the user left nowhere to send it. */
function destination(user: AlertUser, settings: NotifySettings): string | undefined {
  if (settings.notifyType === "webhook") return settings.webhookUrl || undefined;
  return settings.notificationEmail || user.email || undefined;
}

async function deliver(user: AlertUser, settings: NotifySettings, target: string): Promise<void> {
  const message = quotaMessage(user.quota);
  if (settings.notifyType === "webhook") {
    await sendWebhook(target, settings.webhookSecret, message);
  } else {
    await sendMail({ to: target, subject: message.title, html: fillValues(message.content, message.values, Html.escapeHtml) });
  }
}

export async function checkQuotaAlert(userId: number): Promise<void> {
  try {
    const [user] = await db
      .select({ id: t.users.id, quota: t.users.quota, email: t.users.email, setting: t.users.setting, status: t.users.status })
      .from(t.users)
      .where(and(eq(t.users.id, userId), isNull(t.users.deleted_at)))
      .limit(1);
    if (!user || user.status !== UserStatus.enabled) return;
    const settings = readNotifySettings(user.setting);
    const threshold = settings.quotaWarningThreshold ?? optionNumber("QuotaRemindThreshold");
    if (!(user.quota < threshold)) return;
    const target = destination(user, settings);
    if (!target) return;
    if (!(await shared.setIfAbsent(`quota-alert:${userId}`, String(user.quota), alertPeriodSeconds))) return;
    void deliver(user, settings, target).catch((error) => {
      logger.warn("quota alert not delivered", {
        user_id: userId,
        via: settings.notifyType,
        reason:
          error instanceof Error
            ? error.cause instanceof Error
              ? `${error.message}: ${error.cause.message}`
              : error.message
            : String(error),
      });
    });
  } catch (error) {
    logger.warn("quota alert check failed", { user_id: userId, reason: error instanceof Error ? error.message : String(error) });
  }
}
