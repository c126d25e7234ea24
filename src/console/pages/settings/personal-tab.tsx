// Personal settings (every signed-in user): profile, display name, password, the system
// access token, two-factor, passkeys and signed-in sessions (issue 28), the invite link and
// referral transfer, bindings, notification settings, the available models and account deletion. Forms submit to /api; the server checks every rule.
import type { SignedInPageContext } from "../../page-context.ts";
import type { PageOptions } from "../../render-page.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { authWidgetOptions } from "../../components/auth-widgets.tsx";
import { formatCount, formatQuotaDisplay } from "../../format.ts";
import { DeleteAccountCard, ModelsCard } from "./personal/account-extras.tsx";
import { BindingsCard } from "./personal/bindings-card.tsx";
import { InviteCard } from "./personal/invite-card.tsx";
import { NotificationCard } from "./personal/notification-card.tsx";
import { PasswordCard } from "./personal/password-card.tsx";
import { PasskeyList, PasskeysCard, passkeysRegionId } from "./security/passkeys-card.tsx";
import { SessionList, SessionsCard, sessionsRegionId } from "./security/sessions-card.tsx";
import { TwoFactorCard } from "./security/two-factor-card.tsx";
import { listPasskeys } from "../../../services/passkeys/passkey-ceremonies.ts";
import { listSessions } from "../../../services/sessions/session-views.ts";
import { twoFactorStatus } from "../../../services/two-factor/totp-accounts.ts";

const roleLabels: Record<number, string> = { 1: "普通用户", 10: "管理员", 100: "超级管理员" };

export async function personalTab(context: SignedInPageContext): Promise<JSX.Element> {
  const { t, user: me, status } = context;
  const [twoFactor, passkeys, sessions] = await Promise.all([
    twoFactorStatus(me),
    listPasskeys(me.id),
    listSessions(me, context.sessionRecordId),
  ]);
  return (
    <div class="grid items-start gap-4 lg:grid-cols-2">
      <section class="card bg-base-100 shadow-sm" aria-labelledby="profile-title">
        <div class="card-body">
          <h2 id="profile-title" class="card-title" safe>
            {t("个人信息")}
          </h2>
          <dl class="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt class="text-base-content/60" safe>
              {t("用户名")}
            </dt>
            <dd safe>{me.username}</dd>
            <dt class="text-base-content/60" safe>
              {t("角色")}
            </dt>
            <dd safe>{t(roleLabels[me.role] ?? "未知身份")}</dd>
            <dt class="text-base-content/60" safe>
              {t("分组")}
            </dt>
            <dd safe>{me.group}</dd>
            <dt class="text-base-content/60" safe>
              {t("剩余额度")}
            </dt>
            <dd safe>{formatQuotaDisplay(me.quota, status)}</dd>
            <dt class="text-base-content/60" safe>
              {t("已用额度")}
            </dt>
            <dd safe>{formatQuotaDisplay(me.used_quota, status)}</dd>
            <dt class="text-base-content/60" safe>
              {t("请求次数")}
            </dt>
            <dd safe>{formatCount(me.request_count)}</dd>
          </dl>
          <form method="post" class="mt-2 flex items-end gap-2" data-api-form="PUT /api/user/self" data-success="reload" data-keep>
            <TextField name="display_name" label={t("显示名称")} value={me.display_name} maxlength={20} />
            <button type="submit" class="btn btn-primary" safe>
              {t("保存")}
            </button>
          </form>
        </div>
      </section>

      <PasswordCard context={context} />
      <section class="card bg-base-100 shadow-sm" aria-labelledby="access-token-title">
        <div class="card-body">
          <h2 id="access-token-title" class="card-title" safe>
            {t("系统访问令牌")}
          </h2>
          <p class="text-base-content/70 text-sm" safe>
            {t("用于脚本调用管理接口（Authorization 请求头），每次生成都会使旧令牌失效。")}
          </p>
          <input
            id="access-token-value"
            class="input input-bordered w-full font-mono"
            readonly
            placeholder={t("尚未生成")}
            aria-label={t("系统访问令牌")}
          />
          <button
            type="button"
            class="btn w-fit"
            data-api-call="GET /api/user/token"
            data-success="copy"
            data-fill="#access-token-value"
            data-copied-message={t("令牌已重置并已复制到剪贴板")}
            safe
          >
            {t("生成令牌")}
          </button>
        </div>
      </section>

      <TwoFactorCard context={context} status={twoFactor} />
      <PasskeysCard context={context} passkeys={passkeys} />
      <SessionsCard context={context} sessions={sessions} />
      <InviteCard context={context} />
      <BindingsCard context={context} />
      <NotificationCard context={context} />
      <ModelsCard context={context} />
      <DeleteAccountCard context={context} />
    </div>
  );
}

/** The Telegram widget and Turnstile (in the email dialog) need their scripts allowed. */
export function personalTabOptions(context: SignedInPageContext): Partial<PageOptions> {
  return authWidgetOptions(context, { telegram: true });
}

/** The regions htmx refreshes after a change: the passkey list and the session list. */
export async function personalFragment(context: SignedInPageContext, target: string): Promise<JSX.Element | undefined> {
  const me = context.user;
  if (target === passkeysRegionId) return <PasskeyList context={context} passkeys={await listPasskeys(me.id)} />;
  if (target === sessionsRegionId) return <SessionList context={context} sessions={await listSessions(me, context.sessionRecordId)} />;
  return undefined;
}
