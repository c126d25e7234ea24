// A user's notification preferences, read from the `setting` JSON of the users table (new-api's
// keys: notify_type, quota_warning_threshold, webhook_url, webhook_secret,
// notification_email). The settings form writes them (PUT /api/user/setting); this reads them
// defensively, since the column may hold anything older versions wrote.
export type NotifySettings = {
  notifyType: "email" | "webhook";
  /** Undefined when the user set none (the site's QuotaRemindThreshold applies). */
  quotaWarningThreshold: number | undefined;
  webhookUrl: string;
  webhookSecret: string;
  notificationEmail: string;
};

const text = (value: unknown) => (typeof value === "string" ? value.trim() : "");

export function readNotifySettings(setting: string): NotifySettings {
  let parsed: Record<string, unknown> = {};
  try {
    const value = JSON.parse(setting || "{}");
    if (value && typeof value === "object" && !Array.isArray(value)) parsed = value as Record<string, unknown>;
  } catch {
    // A broken setting means defaults, never a failed request.
  }
  const threshold = Number(parsed.quota_warning_threshold);
  return {
    notifyType: parsed.notify_type === "webhook" ? "webhook" : "email",
    quotaWarningThreshold: Number.isFinite(threshold) && threshold > 0 ? threshold : undefined,
    webhookUrl: text(parsed.webhook_url),
    webhookSecret: text(parsed.webhook_secret),
    notificationEmail: text(parsed.notification_email),
  };
}
