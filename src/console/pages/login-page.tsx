// "/login": password sign-in (when enabled), the third-party methods the site switched on, the
// expired-session notice, links to registration and password reset, and signing in with a
// passkey alone. The setup-code field stays hidden until the server asks for it
// (onboarding/setup-code.ts, api-forms.ts). Signing in stores the user for the console and goes
// to /token (where a visitor already signed in is sent at once); with two-factor on, ?step=2fa
// asks for the second step (login-second-step.tsx).
import { TurnstileWidget, authWidgetOptions } from "../components/auth-widgets.tsx";
import { FormCard } from "../components/form-card.tsx";
import { TextField } from "../components/form-fields.tsx";
import { SocialLogins } from "../components/social-logins.tsx";
import { SecondStep } from "./login-second-step.tsx";
import type { PageContext } from "../page-context.ts";
import { accountSecurityIsland } from "../../../islands/account-security/account-security.ts";
import { ScriptIsland } from "../island.tsx";
import { renderPage } from "../render-page.tsx";

export function loginPage(context: PageContext): Response {
  const { t, status, url } = context;
  const expired = url.searchParams.get("expired") === "true";
  // Someone already signed in has nothing to do here: on to where signing in leads (api-forms.ts).
  // Not after an expiry notice, so a session the API refuses can never bounce between the two.
  if (context.user && !expired && url.searchParams.get("step") !== "2fa") return Response.redirect("/token", 302);
  const options = { title: t("登录"), ...authWidgetOptions(context, { telegram: true }) };
  if (url.searchParams.get("step") === "2fa") return renderPage(context, options, <SecondStep context={context} />);
  return renderPage(
    context,
    options,
    <FormCard title={t("登录")}>
      {expired ? (
        <div role="alert" class="alert alert-warning">
          <span safe>{t("未登录或登录已过期，请重新登录")}</span>
        </div>
      ) : (
        ""
      )}
      {status.password_login_enabled ? (
        <form method="post" class="flex flex-col gap-3" data-api-form="POST /api/user/login" data-success="login" novalidate>
          <TextField name="username" label={t("用户名或邮箱")} autocomplete="username" />
          <TextField name="password" label={t("密码")} type="password" autocomplete="current-password" />
          {/* Shown when the server asks for it: root's default password from another address. */}
          <div data-asked-for="setup_code_required" hidden>
            <TextField name="setup_code" label={t("安装码")} autocomplete="off" maxlength={64} disabled />
            <p class="mt-1 text-sm text-base-content/70" safe>
              {t("首次启动时服务器把它写在日志里，在含有 setup code 的一行")}
            </p>
          </div>
          <TurnstileWidget context={context} />
          <button type="submit" class="btn btn-primary mt-2" safe>
            {t("登录")}
          </button>
        </form>
      ) : (
        <p class="text-base-content/70" safe>
          {t("管理员关闭了密码登录")}
        </p>
      )}
      <div class="flex flex-wrap justify-between gap-x-4 gap-y-1 text-sm">
        {status.register_enabled ? (
          <a href="/register" class="link" safe>
            {t("没有账户？点击注册")}
          </a>
        ) : (
          <span />
        )}
        <a href="/reset" class="link" safe>
          {t("忘记密码？点击重置")}
        </a>
      </div>
      <ScriptIsland of={accountSecurityIsland} />
      <button type="button" class="btn btn-outline" data-passkey-login data-unsupported-text={t("此浏览器不支持通行密钥")} safe>
        {t("使用通行密钥登录")}
      </button>
      <SocialLogins context={context} />
    </FormCard>,
  );
}
