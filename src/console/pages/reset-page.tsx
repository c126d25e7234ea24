// "/reset": ask for the reset mail (email, optional human check, a 30-second countdown on the
// button after a mail went out), and "/user/reset": the mailed link lands here with the address
// (read-only) and token; confirming shows the new password and copies it.
import { TurnstileWidget, authWidgetOptions } from "../components/auth-widgets.tsx";
import { FormCard } from "../components/form-card.tsx";
import { TextField } from "../components/form-fields.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export function resetRequestPage(context: PageContext): Response {
  const { t } = context;
  return renderPage(
    context,
    { title: t("密码重置"), ...authWidgetOptions(context) },
    <FormCard title={t("密码重置")}>
      <form class="flex flex-col gap-3" data-api-form="GET /api/reset_password" data-success="event:reset-mail-sent" data-keep novalidate>
        <TextField name="email" label={t("邮箱")} type="email" autocomplete="email" />
        <TurnstileWidget context={context} />
        <button
          type="submit"
          class="btn btn-primary mt-2"
          data-countdown="30"
          data-countdown-text={t("重新发送 ({{seconds}})", { seconds: "{{seconds}}" })}
          safe
        >
          {t("发送重置邮件")}
        </button>
      </form>
      <a href="/login" class="link text-sm" safe>
        {t("已有账户？点击登录")}
      </a>
    </FormCard>,
  );
}

export function resetConfirmPage(context: PageContext): Response {
  const { t, url } = context;
  const email = url.searchParams.get("email") ?? "";
  const token = url.searchParams.get("token") ?? "";
  return renderPage(
    context,
    { title: t("密码重置确认") },
    <FormCard title={t("密码重置确认")}>
      <form
        class="flex flex-col gap-3"
        data-api-form="POST /api/user/reset"
        data-success="copy"
        data-fill="#new-password"
        data-copied-message={t("新密码已复制到剪贴板")}
        data-keep
        novalidate
      >
        <TextField name="email" label={t("邮箱")} type="email" value={email} readonly />
        <input type="hidden" name="token" value={token} />
        <button type="submit" class="btn btn-primary mt-2" safe>
          {t("确认重置密码")}
        </button>
      </form>
      <label class="form-control w-full">
        <span class="label-text mb-1 block text-sm" safe>
          {t("新密码")}
        </span>
        <input
          id="new-password"
          class="input input-bordered w-full font-mono"
          readonly
          aria-label={t("新密码")}
          placeholder={t("确认后在此显示")}
        />
      </label>
      <a href="/login" class="link text-sm" safe>
        {t("返回登录")}
      </a>
    </FormCard>,
  );
}
