// "/login": password sign-in (when enabled), the third-party methods the site switched on, the
// expired-session notice and links to registration and password reset. Signing in stores the
// user for the console and goes to /token.
import { TurnstileWidget, authWidgetOptions } from "../components/auth-widgets.tsx";
import { FormCard } from "../components/form-card.tsx";
import { TextField } from "../components/form-fields.tsx";
import { SocialLogins } from "../components/social-logins.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export function loginPage(context: PageContext): Response {
  const { t, status, url } = context;
  const expired = url.searchParams.get("expired") === "true";
  return renderPage(
    context,
    { title: t("登录"), ...authWidgetOptions(context, { telegram: true }) },
    <FormCard title={t("登录")}>
      {expired ? (
        <div role="alert" class="alert alert-warning">
          <span safe>{t("未登录或登录已过期，请重新登录")}</span>
        </div>
      ) : (
        ""
      )}
      {status.password_login_enabled ? (
        <form class="flex flex-col gap-3" data-api-form="POST /api/user/login" data-success="login" novalidate>
          <TextField name="username" label={t("用户名或邮箱")} autocomplete="username" />
          <TextField name="password" label={t("密码")} type="password" autocomplete="current-password" />
          <TurnstileWidget context={context} />
          <button type="submit" class="btn btn-primary mt-2" safe>{t("登录")}</button>
        </form>
      ) : (
        <p class="text-base-content/70" safe>{t("管理员关闭了密码登录")}</p>
      )}
      <div class="flex flex-wrap justify-between gap-x-4 gap-y-1 text-sm">
        {status.register_enabled ? (
          <a href="/register" class="link" safe>{t("没有账户？点击注册")}</a>
        ) : (
          <span />
        )}
        <a href="/reset" class="link" safe>{t("忘记密码？点击重置")}</a>
      </div>
      <SocialLogins context={context} />
    </FormCard>,
  );
}
