// Saving the quota-alert preferences a user keeps in users.setting (docs/COMPATIBILITY.md, Notifications;
// PUT /api/user/setting): exactly notify_type, quota_warning_threshold, webhook_url,
// webhook_secret and notification_email. notify/notify-settings.ts reads them back (for the
// alerts of notify/quota-alerts.ts and for the form).
import { z } from "zod";
import { checkOutboundUrl } from "../../http/outbound-url.ts";
import { parseInput } from "../parse-input.ts";
import type { UserRow } from "./user-view.ts";
import { updateLiveUser } from "./user-writes.ts";

export type NotificationSetting = {
  notify_type: "email" | "webhook";
  quota_warning_threshold: number;
  webhook_url: string;
  webhook_secret: string;
  notification_email: string;
};

/** The form's presets: 100000 ($0.2), 500000 ($1), 1000000, 5000000; 500000 when nothing is stored. */
export const thresholdPresets = [100_000, 500_000, 1_000_000, 5_000_000];
export const defaultThreshold = 500_000;

const text = (max: number, message: string) =>
  z
    .string({ error: message })
    .nullish()
    .transform((value) => (value ?? "").trim())
    .pipe(z.string().max(max, message));

export const settingInput = z
  .object({
    notify_type: z.enum(["email", "webhook"], { error: "无效的预警类型" }),
    quota_warning_threshold: z.coerce.number({ error: "预警阈值必须大于0" }).int("预警阈值必须大于0").positive("预警阈值必须大于0"),
    webhook_url: text(512, "无效的Webhook地址"),
    webhook_secret: text(256, "Webhook密钥过长"),
    notification_email: text(128, "无效的邮箱地址"),
  })
  .superRefine((input, context) => {
    const fail = (message: string) => context.addIssue({ code: "custom", message });
    if (input.notify_type === "webhook" && input.webhook_url === "") return fail("Webhook地址不能为空");
    if (input.webhook_url !== "") {
      if (!/^https:\/\//i.test(input.webhook_url)) return fail("Webhook地址必须以https开头");
      let url: URL;
      try {
        url = new URL(input.webhook_url);
      } catch {
        return fail("无效的Webhook地址");
      }
      if (url.username || url.password || !url.hostname) return fail("无效的Webhook地址");
    }
    if (input.notification_email !== "" && !z.email().safeParse(input.notification_email).success) fail("无效的邮箱地址");
  });

/** PUT /api/user/setting. */
export async function updateNotificationSetting(user: UserRow, body: unknown): Promise<NotificationSetting> {
  const input = parseInput(settingInput, body);
  // The same check as when an alert is sent (which checks again: DNS may answer differently
  // later), so nobody stores an address inside the gateway's network in the first place.
  if (input.webhook_url !== "") await checkOutboundUrl(input.webhook_url, { acceptUnresolved: true });
  const setting: NotificationSetting = {
    notify_type: input.notify_type,
    quota_warning_threshold: input.quota_warning_threshold,
    webhook_url: input.webhook_url,
    webhook_secret: input.webhook_secret,
    notification_email: input.notification_email.toLowerCase(),
  };
  await updateLiveUser(user.id, { setting: JSON.stringify(setting) });
  return setting;
}
