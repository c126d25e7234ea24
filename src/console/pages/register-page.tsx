// "/register": username, password and confirmation; email and a mailed code when the site
// verifies addresses; the human check; the invite code from ?aff= kept for the request
// (the inviter's link); and the third-party methods, which register on first use.
import { EmailCodeFields, TurnstileWidget, authWidgetOptions } from "../components/auth-widgets.tsx";
import { FormCard } from "../components/form-card.tsx";
import { TextField } from "../components/form-fields.tsx";
import { SocialLogins } from "../components/social-logins.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export function registerPage(context: PageContext): Response {
  const { t, status, url } = context;
  const aff = url.searchParams.get("aff") ?? "";
  const open = status.register_enabled && status.password_register_enabled;
  return renderPage(
    context,
    { title: t("注册"), ...authWidgetOptions(context, { telegram: true }) },
    <FormCard title={t("注册")}>
      {open ? (
        <form method="post" class="flex flex-col gap-3" data-api-form="POST /api/user/register" data-success="redirect:/login" novalidate>
          <TextField name="username" label={t("用户名")} placeholder={t("最长 12 位")} autocomplete="username" maxlength={12} />
          <TextField name="password" label={t("密码")} type="password" placeholder={t("8 到 20 位")} autocomplete="new-password" />
          <TextField name="password2" label={t("确认密码")} type="password" autocomplete="new-password" />
          {status.email_verification ? <EmailCodeFields context={context} /> : ""}
          <input type="hidden" name="aff_code" value={aff} data-keep-aff />
          <TurnstileWidget context={context} />
          <button type="submit" class="btn btn-primary mt-2" safe>
            {t("注册")}
          </button>
        </form>
      ) : (
        <p class="text-base-content/70" safe>
          {status.register_enabled ? t("管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册") : t("管理员关闭了新用户注册")}
        </p>
      )}
      <a href="/login" class="link text-sm" safe>
        {t("已有账户？点击登录")}
      </a>
      {status.register_enabled ? <SocialLogins context={context} /> : ""}
    </FormCard>,
  );
}
