// "/register": username, password and confirmation; email and code when the site verifies
// email addresses; the invite code from ?aff= kept for the request (spec §2 Register).
import { TextField } from "../components/form-fields.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export function registerPage(context: PageContext): Response {
  const { t, status, url } = context;
  const aff = url.searchParams.get("aff") ?? "";
  const open = status.register_enabled && status.password_register_enabled;
  return renderPage(
    context,
    { title: t("注册") },
    <div class="flex justify-center py-8">
      <div class="card bg-base-100 w-full max-w-md shadow-sm">
        <div class="card-body gap-4">
          <h1 class="card-title text-2xl" safe>{t("注册")}</h1>
          {open ? (
            <form class="flex flex-col gap-3" data-api-form="POST /api/user/register" data-success="redirect:/login" novalidate>
              <TextField name="username" label={t("用户名")} placeholder={t("最长 12 位")} autocomplete="username" maxlength={12} />
              <TextField name="password" label={t("密码")} type="password" placeholder={t("8 到 20 位")} autocomplete="new-password" />
              <TextField name="password2" label={t("确认密码")} type="password" autocomplete="new-password" />
              {status.email_verification ? (
                <>
                  <TextField name="email" label={t("邮箱")} type="email" autocomplete="email" />
                  <div class="flex items-end gap-2">
                    <TextField name="verification_code" label={t("验证码")} />
                    <button type="button" class="btn" data-action="send-email-code" data-countdown="30" safe>
                      {t("获取验证码")}
                    </button>
                  </div>
                </>
              ) : (
                ""
              )}
              <input type="hidden" name="aff_code" value={aff} data-keep-aff />
              <button type="submit" class="btn btn-primary mt-2" safe>{t("注册")}</button>
            </form>
          ) : (
            <p class="text-base-content/70" safe>{t("管理员关闭了新用户注册")}</p>
          )}
          <a href="/login" class="link text-sm" safe>{t("已有账户？点击登录")}</a>
        </div>
      </div>
    </div>,
  );
}
