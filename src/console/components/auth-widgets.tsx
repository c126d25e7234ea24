// Pieces of the sign-in, registration, reset and binding forms: the Turnstile widget, the email
// field with its "get code" button, the WeChat code dialog and the Telegram login widget. Each
// renders nothing when the site has the feature switched off.
import type { PageContext } from "../page-context.ts";
import type { PageOptions } from "../render-page.tsx";
import { TextField } from "./form-fields.tsx";
import { Modal } from "./modal.tsx";

const turnstileScript = "https://challenges.cloudflare.com/turnstile/v0/api.js";
const telegramScript = "https://telegram.org/js/telegram-widget.js?22";

/** Page options the widgets need (their scripts, allowed by the page's CSP). */
export function authWidgetOptions(context: PageContext, widgets: { telegram?: boolean } = {}): Partial<PageOptions> {
  const { status } = context;
  return {
    externalScripts: status.turnstile_check ? [turnstileScript] : [],
    scriptOrigins: widgets.telegram && status.telegram_oauth ? [new URL(telegramScript).origin] : [],
  };
}

/** Cloudflare's widget; its token goes with the form as ?turnstile= (console-runtime/turnstile.ts). */
export function TurnstileWidget(props: { context: PageContext }) {
  const { status } = props.context;
  if (!status.turnstile_check) return "";
  return <div class="cf-turnstile" data-sitekey={status.turnstile_site_key}></div>;
}

/**
 * Email and code fields; the button mails a code and then counts 30 seconds down. The code's
 * field name follows the endpoint: registration reads verification_code, the email bind reads
 * code, as in new-api.
 */
export function EmailCodeFields(props: { context: PageContext; emailValue?: string; codeName?: "verification_code" | "code" }) {
  const { t } = props.context;
  return (
    <>
      <TextField name="email" label={t("邮箱")} type="email" autocomplete="email" value={props.emailValue} />
      <div class="flex items-end gap-2">
        <TextField name={props.codeName ?? "verification_code"} label={t("验证码")} autocomplete="one-time-code" />
        <button
          type="button"
          class="btn"
          data-send-email-code
          data-countdown="30"
          data-countdown-text={t("重新发送 ({{seconds}})", { seconds: "{{seconds}}" })}
          safe
        >
          {t("获取验证码")}
        </button>
      </div>
    </>
  );
}

/** The WeChat dialog: the official account's QR code and the code it replies with. */
export function WeChatDialog(props: { context: PageContext; id: string; action: string; success: string }) {
  const { t, status } = props.context;
  return (
    <Modal id={props.id} t={t} title={t("微信扫码登录")}>
      <div class="flex flex-col items-center gap-3">
        {status.wechat_qrcode ? <img src={status.wechat_qrcode} alt={t("微信公众号二维码")} class="size-48" /> : ""}
        <p class="text-base-content/70 text-center text-sm" safe>
          {t("微信扫码关注公众号，输入「验证码」获取验证码（三分钟内有效）")}
        </p>
        <form class="flex w-full flex-col gap-3" data-api-form={props.action} data-success={props.success} novalidate>
          <TextField name="code" label={t("验证码")} autocomplete="one-time-code" />
          {props.success === "login" ? <input type="hidden" name="aff" value="" data-keep-aff /> : ""}
          <button type="submit" class="btn btn-primary" safe>
            {t("确定")}
          </button>
        </form>
      </div>
    </Modal>
  );
}

/** Telegram's login widget; after the person confirms, Telegram opens `authUrl` with the data. */
export function TelegramWidget(props: { context: PageContext; authUrl: string }) {
  const { status, nonce } = props.context;
  if (!status.telegram_oauth || !status.telegram_bot_name) return "";
  return (
    <div class="flex justify-center">
      <script
        async
        src={telegramScript}
        nonce={nonce}
        data-telegram-login={status.telegram_bot_name}
        data-size="large"
        data-auth-url={props.authUrl}
        data-request-access="write"
      ></script>
    </div>
  );
}
