// Not found, forbidden and server error pages, inside the shell.
import { translator } from "../../i18n/i18n.ts";
import { requestLanguage } from "../../http/request-language.ts";
import { systemStatus } from "../../services/status/system-status.ts";
import type { SessionJwt } from "../../http/session.ts";
import { createPageContext, type PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

function ErrorMessage(props: { title: string; detail: string; code: number }) {
  return (
    <section class="hero min-h-[60vh]">
      <div class="hero-content text-center">
        <div>
          <p class="text-base-content/40 text-7xl font-bold" safe>
            {String(props.code)}
          </p>
          <h1 class="mt-4 text-2xl font-semibold" safe>
            {props.title}
          </h1>
          <p class="text-base-content/70 mt-2" safe>
            {props.detail}
          </p>
          <a href="/" class="btn btn-primary mt-6">
            {"←"}
          </a>
        </div>
      </div>
    </section>
  );
}

export function renderNotFoundPage(context: PageContext): Response {
  const { t } = context;
  return renderPage(
    context,
    { title: t("页面不存在"), status: 404 },
    <ErrorMessage code={404} title={t("页面不存在")} detail={t("请检查你的浏览器地址是否正确")} />,
  );
}

export function renderForbiddenPage(context: PageContext): Response {
  const { t } = context;
  return renderPage(
    context,
    { title: t("无权访问"), status: 403 },
    <ErrorMessage code={403} title={t("无权访问")} detail={t("无权进行此操作，权限不足")} />,
  );
}

/**
 * Used by the app's error handler, which has no page context: the session cookie is read here so
 * a signed-in user keeps the signed-in top bar. Reading it may fail (the store being what
 * failed): the page then renders as for a visitor.
 */
export async function renderErrorPage(request: Request, status: 404 | 500, sessionJwt: SessionJwt): Promise<Response> {
  const context = await createPageContext(request, sessionJwt, undefined).catch(() => visitorContext(request));
  if (status === 404) return renderNotFoundPage(context);
  const { t } = context;
  return renderPage(
    context,
    { title: t("服务器内部错误"), status: 500 },
    <ErrorMessage code={500} title={t("服务器内部错误")} detail={t("服务器内部错误，请联系管理员")} />,
  );
}

function visitorContext(request: Request): PageContext {
  const language = requestLanguage(request);
  return {
    request,
    url: new URL(request.url),
    language,
    t: translator(language),
    theme: undefined,
    sidebarCollapsed: false,
    user: undefined,
    sessionRecordId: undefined,
    status: systemStatus(),
    nonce: crypto.randomUUID().replaceAll("-", ""),
    timeZone: undefined,
  };
}
