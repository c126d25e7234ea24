// Account bindings on the personal tab: email (mailed code), GitHub
// and LinuxDO (authorize window; the callback binds), WeChat (code dialog), Telegram (widget) and
// the site's OpenID Connect provider (bound and unbound here, issue 28).
// A method appears only when the site switched it on; bound accounts show their id.
import { authorizeUrl } from "../../../../services/auth/oauth-providers.ts";
import { EmailCodeFields, TelegramWidget, TurnstileWidget, WeChatDialog } from "../../../components/auth-widgets.tsx";
import { Modal } from "../../../components/modal.tsx";
import type { SignedInPageContext } from "../../../page-context.ts";

function BindingRow(props: { label: string; value: string; unbound: string; children?: JSX.Element | string }) {
  return (
    <li class="flex flex-wrap items-center justify-between gap-2 py-2">
      <div class="flex flex-col">
        <span class="font-medium" safe>
          {props.label}
        </span>
        <span class="text-base-content/60 text-sm" safe>
          {props.value || props.unbound}
        </span>
      </div>
      {/* Buttons and widgets rendered by our own components. */}
      {(props.children ?? "") as "safe"}
    </li>
  );
}

function EmailBindDialog(props: { context: SignedInPageContext }) {
  const { t } = props.context;
  return (
    <Modal id="bind-email" t={t} title={t("绑定邮箱地址")}>
      <form class="flex flex-col gap-3" data-api-form="GET /api/oauth/email/bind" data-success="reload" novalidate>
        <EmailCodeFields context={props.context} codeName="code" />
        <TurnstileWidget context={props.context} />
        <div class="modal-action">
          <button type="submit" class="btn btn-primary" safe>
            {t("确定")}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function BindingsCard(props: { context: SignedInPageContext }) {
  const { context } = props;
  const { t, status } = context;
  const me = context.user;
  const unbound = t("未绑定");
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="bindings-title">
      <div class="card-body">
        <h2 id="bindings-title" class="card-title" safe>
          {t("账户绑定")}
        </h2>
        <ul class="divide-base-200 divide-y">
          <BindingRow label={t("邮箱")} value={me.email} unbound={unbound}>
            <button type="button" class="btn btn-sm" data-open-dialog="#bind-email" safe>
              {me.email ? t("修改绑定") : t("绑定邮箱")}
            </button>
          </BindingRow>
          {status.github_oauth || me.github_id ? (
            <BindingRow label="GitHub" value={me.github_id} unbound={unbound}>
              {status.github_oauth && !me.github_id ? (
                <button type="button" class="btn btn-sm" data-oauth-authorize={authorizeUrl("github")} safe>
                  {t("绑定 GitHub 账户")}
                </button>
              ) : (
                ""
              )}
            </BindingRow>
          ) : (
            ""
          )}
          {status.linuxdo_oauth || me.linux_do_id ? (
            <BindingRow label="LinuxDO" value={me.linux_do_id} unbound={unbound}>
              {status.linuxdo_oauth && !me.linux_do_id ? (
                <button type="button" class="btn btn-sm" data-oauth-authorize={authorizeUrl("linuxdo")} safe>
                  {t("绑定 LinuxDO 账户")}
                </button>
              ) : (
                ""
              )}
            </BindingRow>
          ) : (
            ""
          )}
          {status.wechat_login || me.wechat_id ? (
            <BindingRow label={t("微信")} value={me.wechat_id ? t("已绑定") : ""} unbound={unbound}>
              {status.wechat_login && !me.wechat_id ? (
                <button type="button" class="btn btn-sm" data-open-dialog="#bind-wechat" safe>
                  {t("绑定微信账户")}
                </button>
              ) : (
                ""
              )}
            </BindingRow>
          ) : (
            ""
          )}
          {status.oidc_enabled || me.oidc_id ? (
            <BindingRow label={status.oidc_provider_name} value={me.oidc_id} unbound={unbound}>
              {me.oidc_id ? (
                <button
                  type="button"
                  class="btn btn-sm btn-outline"
                  data-api-call="DELETE /api/oauth/oidc/bind"
                  data-confirm={t("确定要解绑 {{name}} 账户吗？", { name: status.oidc_provider_name })}
                  data-success="reload"
                  safe
                >
                  {t("解绑")}
                </button>
              ) : (
                <button type="button" class="btn btn-sm" data-oidc-authorize safe>
                  {t("绑定 {{name}} 账户", { name: status.oidc_provider_name })}
                </button>
              )}
            </BindingRow>
          ) : (
            ""
          )}
          {status.telegram_oauth || me.telegram_id ? (
            <BindingRow label="Telegram" value={me.telegram_id} unbound={unbound}>
              {status.telegram_oauth && !me.telegram_id ? <TelegramWidget context={context} authUrl="/oauth/telegram/bind" /> : ""}
            </BindingRow>
          ) : (
            ""
          )}
        </ul>
        <EmailBindDialog context={context} />
        {status.wechat_login ? (
          <WeChatDialog context={context} id="bind-wechat" action="GET /api/oauth/wechat/bind" success="reload" />
        ) : (
          ""
        )}
      </div>
    </section>
  );
}
