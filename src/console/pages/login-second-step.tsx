// The second step of a sign-in with two-factor (issue 28), shown by /login?step=2fa after the
// password, a social account or OIDC proved the account: a code from the authenticator app, or
// a recovery code, or one of the account's passkeys. The pending sign-in lives in an HttpOnly
// cookie only the server reads; without it the server answers that the step has expired.
import { FormCard } from "../components/form-card.tsx";
import { TextField } from "../components/form-fields.tsx";
import type { PageContext } from "../page-context.ts";
import { accountSecurityIsland } from "../../../islands/account-security/account-security.ts";
import { ScriptIsland } from "../island.tsx";

export function SecondStep(props: { context: PageContext }) {
  const { t } = props.context;
  return (
    <FormCard title={t("两步验证")}>
      <p class="text-base-content/70 text-sm" safe>
        {t("请输入身份验证器应用中的 6 位验证码。")}
      </p>
      <form
        method="post"
        class="flex flex-col gap-3"
        data-api-form="POST /api/user/login/2fa"
        data-success="login"
        data-second-step="code"
        novalidate
      >
        <TextField name="code" label={t("验证码")} autocomplete="one-time-code" inputmode="numeric" maxlength={6} placeholder="123456" />
        <button type="submit" class="btn btn-primary" safe>
          {t("验证")}
        </button>
      </form>
      <details class="text-sm">
        <summary class="link w-fit" safe>
          {t("使用恢复码")}
        </summary>
        <form
          class="mt-2 flex flex-col gap-3"
          data-api-form="POST /api/user/login/2fa"
          data-success="login"
          data-second-step="recovery"
          novalidate
        >
          <TextField name="recovery_code" label={t("恢复码")} autocomplete="off" placeholder="abcde-fghjk" />
          <button type="submit" class="btn" safe>
            {t("使用恢复码登录")}
          </button>
        </form>
      </details>
      <div class="divider text-sm" safe>
        {t("或")}
      </div>
      <ScriptIsland of={accountSecurityIsland} />
      <button type="button" class="btn btn-outline" data-passkey-second-factor data-unsupported-text={t("此浏览器不支持通行密钥")} safe>
        {t("使用通行密钥验证")}
      </button>
      <a href="/login" class="link text-sm" safe>
        {t("返回登录")}
      </a>
    </FormCard>
  );
}
