// "/oauth/github", "/oauth/linuxdo" (the OAuth callbacks) and the Telegram widget's
// landing pages: the browser runtime forwards the query to /api/oauth/..., then goes to /token
// after a sign-in, to /setting after a binding ("bind"), or shows the failure and goes to
// /setting (console-runtime/account-flows.ts).
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export function oauthCallbackPage(apiPath: string) {
  return (context: PageContext): Response => {
    const { t } = context;
    return renderPage(
      context,
      { title: t("正在处理") },
      <div class="flex justify-center py-16">
        <div
          class="flex flex-col items-center gap-4"
          data-oauth-callback={apiPath}
          data-bound-text={t("绑定成功！")}
          data-failed-text={t("操作失败，重定向至登录界面中...")}
        >
          <span class="loading loading-spinner loading-lg" aria-hidden="true"></span>
          <p data-callback-status role="status" safe>
            {t("正在处理，请稍候...")}
          </p>
        </div>
      </div>,
    );
  };
}
