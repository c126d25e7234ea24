// What root sees on every console page while the password is still the default one: a page
// that asks for a new password before anything else. The change goes through the normal
// PUT /api/user/self (with the current password, which is known here: it is the default), which
// keeps this session alive with a fresh cookie; the page the user asked for then loads.
import { rootDefaults } from "../../../services/users/registration.ts";
import { Icon } from "../../components/icons.tsx";
import { TextField } from "../../components/form-fields.tsx";
import type { PageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";

export function renderPasswordGatePage(context: PageContext): Response {
  const { t } = context;
  return renderPage(
    context,
    { title: t("设置新密码") },
    <section class="flex min-h-[70vh] items-center justify-center" data-password-gate>
      <div class="card bg-base-100 w-full max-w-md shadow-sm">
        <div class="card-body gap-4">
          <div class="flex items-center gap-3">
            <Icon name="key" class="text-warning size-8" />
            <h1 class="card-title text-xl" safe>
              {t("设置新密码")}
            </h1>
          </div>
          <p class="text-base-content/80" safe>
            {t("你正以 root 身份使用默认密码登录，知道它的任何人都能接管本站。请先设置新密码，再继续使用控制台。")}
          </p>
          <form method="post" class="flex flex-col gap-3" data-api-form="PUT /api/user/self" data-success="reload">
            {/* The current password is the default one: that is why this page is shown. */}
            <input type="hidden" name="original_password" value={rootDefaults.password} />
            {/* For password managers only: no name, so it is not sent. */}
            <input type="text" value={rootDefaults.username} autocomplete="username" hidden />
            <TextField
              name="password"
              label={t("新密码")}
              type="password"
              placeholder={t("8 到 20 位")}
              autocomplete="new-password"
              required
            />
            <TextField name="password2" label={t("确认新密码")} type="password" autocomplete="new-password" required />
            <button type="submit" class="btn btn-primary mt-2" safe>
              {t("保存新密码并继续")}
            </button>
          </form>
          <button type="button" class="btn btn-ghost btn-sm w-fit" data-action="logout" safe>
            {t("退出")}
          </button>
        </div>
      </div>
    </section>,
  );
}
