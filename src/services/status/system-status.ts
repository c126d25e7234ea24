// GET /api/status: what the console (and compatible clients) need to know about this site
// before anyone signs in (field names as new-api sends them; docs/COMPATIBILITY.md, Response shapes).
import { compatibleVersion, productVersion } from "../../version.ts";
import { webLinkOrEmpty } from "../options/link-rules.ts";
import { optionBool, optionJson, optionNumber, optionText } from "../options/options.ts";
import { onlineTopUpEnabled } from "../topup/topup-quote.ts";

const startedAt = Math.floor(Date.now() / 1000);

export function systemStatus() {
  return {
    version: compatibleVersion,
    switchyard_version: productVersion,
    start_time: startedAt,
    system_name: optionText("SystemName"),
    // Links rendered into pages: only http(s), whatever an older version let the admin store.
    logo: webLinkOrEmpty(optionText("Logo")),
    footer_html: optionText("Footer"),
    server_address: webLinkOrEmpty(optionText("ServerAddress")),
    quota_per_unit: optionNumber("QuotaPerUnit"),
    display_in_currency: optionBool("DisplayInCurrencyEnabled"),
    price: optionNumber("Price"),
    min_topup: optionNumber("MinTopUp"),
    top_up_link: webLinkOrEmpty(optionText("TopUpLink")),
    enable_online_topup: onlineTopUpEnabled(),
    enable_batch_update: false,
    enable_drawing: optionBool("DrawingEnabled"),
    enable_task: optionBool("TaskEnabled"),
    enable_data_export: optionBool("DataExportEnabled"),
    data_export_default_time: optionText("DataExportDefaultTime"),
    default_collapse_sidebar: optionBool("DefaultCollapseSidebar"),
    mj_notify_enabled: optionBool("MjNotifyEnabled"),
    chats: optionJson<unknown[]>("Chats"),
    chat_link: webLinkOrEmpty(optionText("ChatLink")),
    chat_link2: webLinkOrEmpty(optionText("ChatLink2")),
    demo_site_enabled: optionBool("DemoSiteEnabled"),
    email_verification: optionBool("EmailVerificationEnabled"),
    github_oauth: optionBool("GitHubOAuthEnabled"),
    github_client_id: optionText("GitHubClientId"),
    linuxdo_oauth: optionBool("LinuxDOOAuthEnabled"),
    linuxdo_client_id: optionText("LinuxDOClientId"),
    wechat_login: optionBool("WeChatAuthEnabled"),
    wechat_qrcode: optionText("WeChatAccountQRCodeImageURL"),
    telegram_oauth: optionBool("TelegramOAuthEnabled"),
    telegram_bot_name: optionText("TelegramBotName"),
    // Generic OpenID Connect (issue 28): the console asks /api/oauth/oidc/authorize for the URL.
    oidc_enabled: optionBool("OidcEnabled"),
    oidc_provider_name: optionText("OidcProviderName") || "OIDC",
    turnstile_check: optionBool("TurnstileCheckEnabled"),
    turnstile_site_key: optionText("TurnstileSiteKey"),
    password_login_enabled: optionBool("PasswordLoginEnabled"),
    password_register_enabled: optionBool("PasswordRegisterEnabled"),
    register_enabled: optionBool("RegisterEnabled"),
  };
}

export type SystemStatus = ReturnType<typeof systemStatus>;
