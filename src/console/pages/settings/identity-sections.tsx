// System settings of issue 28: the generic OpenID Connect provider (discovery URL, client,
// scopes, the claim that names new accounts, the button's label) and the two-factor requirement
// for admins and root.
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionSwitch, SwitchSection } from "./option-fields.tsx";

export function OidcSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="system-oidc" title={t("配置 OIDC 登录")} submit={t("保存 OIDC 设置")}>
      <p class="text-base-content/70 text-sm break-all" safe>
        {t("回调地址填写 {{address}}", { address: `${context.status.server_address || context.url.origin}/oauth/oidc` })}
      </p>
      <p class="text-base-content/70 text-sm" safe>
        {t(
          "支持 Keycloak、Authentik、Google Workspace、Microsoft Entra、Okta 等任意 OpenID Connect 身份提供商；账户按提供商的 sub 匹配，从不按邮箱匹配。",
        )}
      </p>
      <FieldGrid>
        <OptionInput
          context={context}
          name="OidcDiscoveryUrl"
          label={t("发现地址（Issuer 或 .well-known 地址）")}
          placeholder="https://id.example.com/realms/main"
          type="url"
        />
        <OptionInput context={context} name="OidcProviderName" label={t("登录按钮上显示的名称")} />
        <OptionInput context={context} name="OidcClientId" label={t("OIDC Client ID")} />
        <OptionInput context={context} name="OidcClientSecret" label={t("OIDC Client Secret")} />
        <OptionInput context={context} name="OidcScopes" label={t("授权范围（scope）")} placeholder="openid profile email" />
        <OptionInput
          context={context}
          name="OidcUsernameClaim"
          label={t("用作用户名的声明")}
          hint={t("新账户的用户名取自 ID Token 中的这一声明，无效时使用 oidc_编号")}
          placeholder="preferred_username"
        />
      </FieldGrid>
    </OptionSection>
  );
}

export function SecuritySwitches(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <SwitchSection id="system-security" title={t("账户安全")}>
      <OptionSwitch context={context} name="OidcEnabled" label={t("允许通过 OIDC 登录 & 注册")} />
      <OptionSwitch context={context} name="AdminTwoFactorRequired" label={t("要求管理员和超级管理员启用两步验证")} />
      <p class="text-base-content/70 text-sm md:col-span-2" safe>
        {t("开启后，未启用两步验证的管理员和超级管理员在启用之前只能进入两步验证设置；系统访问令牌和 API 令牌不受影响。")}
      </p>
    </SwitchSection>
  );
}
