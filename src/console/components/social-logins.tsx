// The third-party sign-in choices under the login and registration forms:
// GitHub and LinuxDO open their authorize page in a new window, WeChat asks for a code in a
// dialog, Telegram shows its widget. Only the methods the site switched on appear.
import { authorizeUrl } from "../../services/auth/oauth-providers.ts";
import type { PageContext } from "../page-context.ts";
import { TelegramWidget, WeChatDialog } from "./auth-widgets.tsx";

function anySocialLogin(context: PageContext): boolean {
  const { status } = context;
  return status.github_oauth || status.linuxdo_oauth || status.wechat_login || status.telegram_oauth || status.oidc_enabled;
}

export function SocialLogins(props: { context: PageContext }) {
  const { context } = props;
  const { t, status } = context;
  if (!anySocialLogin(context)) return "";
  return (
    <div class="flex flex-col gap-3">
      <div class="divider text-sm" safe>
        {t("使用第三方账户登录")}
      </div>
      <div class="flex flex-wrap justify-center gap-2">
        {status.github_oauth ? (
          <button type="button" class="btn" data-oauth-authorize={authorizeUrl("github")} safe>
            {t("使用 GitHub 继续")}
          </button>
        ) : (
          ""
        )}
        {status.linuxdo_oauth ? (
          <button type="button" class="btn" data-oauth-authorize={authorizeUrl("linuxdo")} safe>
            {t("使用 LinuxDO 继续")}
          </button>
        ) : (
          ""
        )}
        {status.oidc_enabled ? (
          <button type="button" class="btn" data-oidc-authorize safe>
            {t("使用 {{name}} 继续", { name: status.oidc_provider_name })}
          </button>
        ) : (
          ""
        )}
        {status.wechat_login ? (
          <button type="button" class="btn" data-open-dialog="#wechat-login" safe>
            {t("使用微信继续")}
          </button>
        ) : (
          ""
        )}
      </div>
      <TelegramWidget context={context} authUrl="/oauth/telegram" />
      {status.wechat_login ? <WeChatDialog context={context} id="wechat-login" action="GET /api/oauth/wechat" success="login" /> : ""}
    </div>
  );
}
