// Two-factor (TOTP) on the security tab (issue 28): set up with a QR code and the secret in
// text, confirmed by a first code, recovery codes shown once; switched off with a code or a
// recovery code. The QR code and the recovery codes are drawn by the account-security script.
import type { TwoFactorStatus } from "../../../../services/two-factor/totp-accounts.ts";
import { TextField } from "../../../components/form-fields.tsx";
import { Modal } from "../../../components/modal.tsx";
import type { PageContext } from "../../../page-context.ts";
import { accountSecurityIsland } from "../../../../../islands/account-security/account-security.ts";
import { ScriptIsland } from "../../../island.tsx";

function SetupPanel(props: { context: PageContext }) {
  const { t } = props.context;
  return (
    <div class="flex flex-col gap-3" data-totp-panel hidden>
      <p class="text-sm" safe>
        {t("用身份验证器应用（如 Google Authenticator、Microsoft Authenticator、1Password）扫描二维码，或手动输入密钥。")}
      </p>
      <div class="flex flex-wrap items-start gap-4">
        <div class="rounded-box w-44 max-w-full bg-white p-2" data-totp-qr role="img" aria-label={t("两步验证二维码")} />
        <div class="flex min-w-0 flex-1 flex-col gap-1">
          <span class="text-base-content/60 text-sm" safe>
            {t("密钥")}
          </span>
          <code class="font-mono text-sm break-all" data-totp-secret />
        </div>
      </div>
      <form
        method="post"
        class="flex flex-wrap items-end gap-2"
        data-api-form="POST /api/user/2fa/enable"
        data-success="event:totp-enabled"
        novalidate
      >
        <TextField name="code" label={t("验证码")} autocomplete="one-time-code" inputmode="numeric" maxlength={6} placeholder="123456" />
        <button type="submit" class="btn btn-primary" safe>
          {t("确认启用")}
        </button>
      </form>
    </div>
  );
}

function RecoveryCodesPanel(props: { context: PageContext }) {
  const { t } = props.context;
  return (
    <div class="flex flex-col gap-3" data-recovery-panel hidden>
      <div role="alert" class="alert alert-warning text-sm">
        <span safe>{t("请妥善保存这些恢复码：每个只能使用一次，它们只显示这一次。")}</span>
      </div>
      <ul class="grid grid-cols-2 gap-1 font-mono text-sm" data-recovery-codes aria-label={t("恢复码")} />
      <div class="flex flex-wrap gap-2">
        <button type="button" class="btn btn-sm" data-copy-recovery-codes data-copied-message={t("已复制到剪贴板")} safe>
          {t("复制恢复码")}
        </button>
        <button type="button" class="btn btn-sm btn-primary" data-reload-page safe>
          {t("我已保存")}
        </button>
      </div>
    </div>
  );
}

function DisableDialog(props: { context: PageContext }) {
  const { t } = props.context;
  return (
    <Modal id="disable-2fa" t={t} title={t("关闭两步验证")}>
      <form method="post" class="flex flex-col gap-3" data-api-form="POST /api/user/2fa/disable" data-success="reload" novalidate>
        <p class="text-base-content/70 text-sm" safe>
          {t("输入身份验证器中的验证码，或一个恢复码。")}
        </p>
        <TextField name="code" label={t("验证码")} autocomplete="one-time-code" inputmode="numeric" maxlength={6} />
        <TextField name="recovery_code" label={t("或恢复码")} autocomplete="off" />
        <div class="modal-action">
          <button type="submit" class="btn btn-error" safe>
            {t("关闭两步验证")}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export function TwoFactorCard(props: { context: PageContext; status: TwoFactorStatus }) {
  const { context, status } = props;
  const { t } = context;
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="two-factor-title" id="two-factor">
      <div class="card-body gap-3">
        <ScriptIsland of={accountSecurityIsland} />
        <div class="flex flex-wrap items-center justify-between gap-2">
          <h2 id="two-factor-title" class="card-title" safe>
            {t("两步验证")}
          </h2>
          {status.enabled ? (
            <span class="badge badge-success" safe>
              {t("已启用")}
            </span>
          ) : (
            <span class="badge badge-ghost" safe>
              {t("未启用")}
            </span>
          )}
        </div>
        {status.required ? (
          <div role="alert" class="alert alert-warning text-sm">
            <span safe>{t("管理员要求启用两步验证，请先在个人设置中启用")}</span>
          </div>
        ) : (
          ""
        )}
        <p class="text-base-content/70 text-sm" safe>
          {t("登录时除密码外还需输入身份验证器应用生成的 6 位验证码（GitHub、OIDC 等第三方登录同样需要）。")}
        </p>
        {status.enabled ? (
          <>
            <p class="text-sm" safe>
              {t("剩余恢复码：{{count}} 个", { count: status.recovery_codes_left })}
            </p>
            <button type="button" class="btn btn-outline btn-error w-fit" data-open-dialog="#disable-2fa" safe>
              {t("关闭两步验证")}
            </button>
            <DisableDialog context={context} />
          </>
        ) : (
          <>
            <button type="button" class="btn btn-primary w-fit" data-totp-setup safe>
              {t("启用两步验证")}
            </button>
            <SetupPanel context={context} />
            <RecoveryCodesPanel context={context} />
          </>
        )}
      </div>
    </section>
  );
}
