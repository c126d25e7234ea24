// "/setting?tab=system" (super admin): the server address, the sign-in and registration switches
// (saved the moment they are flipped; turning password login off asks first), the email domain
// whitelist, SMTP, the OAuth clients, OpenID Connect, the two-factor requirement and Turnstile; switches save when flipped.
// Switching a method on before its settings exist is refused by the option rules.
import type { PageContext } from "../../page-context.ts";
import { OidcSection, SecuritySwitches } from "./identity-sections.tsx";
import { ObservabilitySection } from "./observability-section.tsx";
import { FieldGrid, OptionInput, OptionSection, OptionSwitch, OptionTextarea, OptionToggle, SwitchSection } from "./option-fields.tsx";

function ServerSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="system-server" title={t("通用设置")} submit={t("更新服务器地址")}>
      <FieldGrid>
        <OptionInput
          context={context}
          name="ServerAddress"
          label={t("服务器地址")}
          hint={t("用户访问本站的地址，支付回调与邮件中的链接会用到")}
          placeholder={t("例如：https://yourdomain.com")}
          type="url"
        />
        <OptionInput
          context={context}
          name="WorkerUrl"
          label={t("Worker 地址")}
          hint={t("用于代理访问外部图片等资源，可留空")}
          type="url"
        />
        <OptionInput context={context} name="WorkerValidKey" label={t("Worker 密钥")} />
      </FieldGrid>
    </OptionSection>
  );
}

function SignInSwitches(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <SwitchSection id="system-login" title={t("配置登录注册")}>
      <OptionSwitch
        context={context}
        name="PasswordLoginEnabled"
        label={t("允许通过密码进行登录")}
        confirmOff={t("确定要取消密码登录吗？取消后没有绑定其他登录方式的用户将无法登录。")}
      />
      <OptionSwitch context={context} name="PasswordRegisterEnabled" label={t("允许通过密码进行注册")} />
      <OptionSwitch context={context} name="EmailVerificationEnabled" label={t("通过密码注册时需要进行邮箱验证")} />
      <OptionSwitch context={context} name="GitHubOAuthEnabled" label={t("允许通过 GitHub 账户登录 & 注册")} />
      <OptionSwitch context={context} name="LinuxDOOAuthEnabled" label={t("允许通过 LinuxDO 账户登录 & 注册")} />
      <OptionSwitch context={context} name="WeChatAuthEnabled" label={t("允许通过微信登录 & 注册")} />
      <OptionSwitch context={context} name="TelegramOAuthEnabled" label={t("允许通过 Telegram 进行登录")} />
      <OptionSwitch context={context} name="RegisterEnabled" label={t("允许新用户注册（此项为否时，新用户将无法以任何方式进行注册）")} />
      <OptionSwitch context={context} name="TurnstileCheckEnabled" label={t("启用 Turnstile 用户校验")} />
    </SwitchSection>
  );
}

function EmailWhitelistSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="system-email-domains" title={t("配置邮箱域名白名单")} submit={t("保存邮箱域名白名单设置")}>
      <p class="text-base-content/70 text-sm" safe>
        {t("用以防止恶意用户利用临时邮箱批量注册")}
      </p>
      <div class="grid gap-2 md:grid-cols-2">
        <OptionToggle context={context} name="EmailDomainRestrictionEnabled" label={t("启用邮箱域名白名单")} />
        <OptionToggle context={context} name="EmailAliasRestrictionEnabled" label={t("启用邮箱别名限制（例如：ab.cd@gmail.com）")} />
      </div>
      <OptionTextarea
        context={context}
        name="EmailDomainWhitelist"
        label={t("允许的邮箱域名")}
        hint={t("以逗号或换行分隔；空项与重复项会被忽略")}
        rows={3}
      />
    </OptionSection>
  );
}

function SmtpSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="system-smtp" title={t("配置 SMTP")} submit={t("保存 SMTP 设置")}>
      <p class="text-base-content/70 text-sm" safe>
        {t("用以支持系统的邮件发送")}
      </p>
      <FieldGrid>
        <OptionInput context={context} name="SMTPServer" label={t("SMTP 服务器地址")} placeholder={t("例如：smtp.qq.com")} />
        <OptionInput context={context} name="SMTPPort" label={t("SMTP 端口")} placeholder={t("默认：587")} type="number" />
        <OptionInput context={context} name="SMTPAccount" label={t("SMTP 账户")} placeholder={t("通常是邮箱地址")} />
        <OptionInput context={context} name="SMTPFrom" label={t("SMTP 发送者邮箱")} placeholder={t("通常和邮箱地址保持一致")} />
        <OptionInput context={context} name="SMTPToken" label={t("SMTP 访问凭证")} />
      </FieldGrid>
      <OptionToggle context={context} name="SMTPSSLEnabled" label={t("启用 SMTP SSL")} />
    </OptionSection>
  );
}

function OAuthSections(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <>
      <OptionSection context={context} id="system-github" title={t("配置 GitHub OAuth App")} submit={t("保存 GitHub OAuth 设置")}>
        <p class="text-base-content/70 text-sm" safe>
          {t("回调地址填写 {{address}}", { address: `${context.status.server_address || context.url.origin}/oauth/github` })}
        </p>
        <FieldGrid>
          <OptionInput context={context} name="GitHubClientId" label={t("GitHub Client ID")} />
          <OptionInput context={context} name="GitHubClientSecret" label={t("GitHub Client Secret")} />
        </FieldGrid>
      </OptionSection>
      <OptionSection context={context} id="system-linuxdo" title={t("配置 LinuxDO OAuth")} submit={t("保存 LinuxDO OAuth 设置")}>
        <p class="text-base-content/70 text-sm" safe>
          {t("回调地址填写 {{address}}", { address: `${context.status.server_address || context.url.origin}/oauth/linuxdo` })}
        </p>
        <FieldGrid>
          <OptionInput context={context} name="LinuxDOClientId" label={t("LinuxDO Client ID")} />
          <OptionInput context={context} name="LinuxDOClientSecret" label={t("LinuxDO Client Secret")} />
        </FieldGrid>
      </OptionSection>
      <OptionSection context={context} id="system-wechat" title={t("配置 WeChat Server")} submit={t("保存 WeChat Server 设置")}>
        <FieldGrid>
          <OptionInput context={context} name="WeChatServerAddress" label={t("WeChat Server 服务器地址")} type="url" />
          <OptionInput context={context} name="WeChatServerToken" label={t("WeChat Server 访问凭证")} />
          <OptionInput context={context} name="WeChatAccountQRCodeImageURL" label={t("微信公众号二维码图片链接")} type="url" />
        </FieldGrid>
      </OptionSection>
      <OptionSection context={context} id="system-telegram" title={t("配置 Telegram 登录")} submit={t("保存 Telegram 登录设置")}>
        <FieldGrid>
          <OptionInput context={context} name="TelegramBotToken" label={t("Telegram Bot Token")} />
          <OptionInput context={context} name="TelegramBotName" label={t("Telegram Bot 名称")} />
        </FieldGrid>
      </OptionSection>
      <OptionSection context={context} id="system-turnstile" title={t("配置 Turnstile")} submit={t("保存 Turnstile 设置")}>
        <p class="text-base-content/70 text-sm" safe>
          {t("用以支持用户校验")}
        </p>
        <FieldGrid>
          <OptionInput context={context} name="TurnstileSiteKey" label={t("Turnstile Site Key")} />
          <OptionInput context={context} name="TurnstileSecretKey" label={t("Turnstile Secret Key")} />
        </FieldGrid>
      </OptionSection>
    </>
  );
}

export function systemTab(context: PageContext): JSX.Element {
  return (
    <div class="flex flex-col gap-4">
      <ServerSection context={context} />
      <SignInSwitches context={context} />
      <SecuritySwitches context={context} />
      <EmailWhitelistSection context={context} />
      <SmtpSection context={context} />
      <OAuthSections context={context} />
      <OidcSection context={context} />
      <ObservabilitySection context={context} />
    </div>
  );
}
