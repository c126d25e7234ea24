// "/chat/{id}": the admin's chat link number id embedded in a frame, filled with the user's first
// enabled token and the server address; "/chat2link": the same link opened directly.
// Visitors and users without a usable token get new-api's messages (docs/COMPATIBILITY.md, Messages).
import { chatLinkName, chatLinks, chatRedirectLink, fillChatLink, missingChatLinkMessage } from "../../../services/tokens/chat-links.ts";
import { firstUsableToken } from "../../../services/tokens/token-queries.ts";
import type { PageContext, SignedInPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";

function Notice(props: { text: string; redirect?: boolean }) {
  return (
    <>
      {props.redirect ? <meta http-equiv="refresh" content="1.5;url=/token" /> : ""}
      <div role="alert" class="alert alert-warning">
        <span safe>{props.text}</span>
      </div>
    </>
  );
}

const noTokenMessage = "当前没有可用的启用令牌，请确认是否有令牌处于启用状态！";

export async function chatPage(context: PageContext, params: Record<string, string | undefined>): Promise<Response> {
  const { t, user, status, url } = context;
  const links = chatLinks();
  const index = Number(params.id ?? 0);
  const link = Number.isInteger(index) ? links[index] : undefined;
  const name = link ? chatLinkName(link.name, t) : undefined;
  const title = name ?? t("聊天");
  const render = (content: JSX.Element, frameSources: string[] = []) => renderPage(context, { title, frameSources }, content);
  if (!user) return render(<Notice text={t("未登录或登录已过期，请重新登录！")} />);
  if (!link) return render(<Notice text={t(missingChatLinkMessage())} />);
  const token = await firstUsableToken(user.id);
  if (!token) return render(<Notice text={t(noTokenMessage)} redirect />);
  const href = fillChatLink(link.template, token.key, status.server_address || url.origin);
  let origin: string | undefined;
  try {
    const parsed = new URL(href);
    origin = parsed.protocol === "https:" || parsed.protocol === "http:" ? parsed.origin : undefined;
  } catch {
    origin = undefined;
  }
  if (!origin) {
    // Custom schemes (ama://, opencat://) open an app; a frame cannot show them.
    return render(
      <div class="flex flex-col items-start gap-3">
        <p safe>{t("该聊天应用需要在本机打开")}</p>
        <a class="btn btn-primary" href={href} safe>
          {t("打开 {{name}}", { name })}
        </a>
      </div>,
    );
  }
  // A site that refuses to be framed, or cannot be reached, leaves the frame blank with no event
  // the page could see; so the way out is always shown above it.
  return render(
    <div class="flex flex-col gap-2">
      <p class="text-base-content/70 text-sm" data-chat-fallback>
        <span safe>{t("如果下方一片空白，{{name}} 可能不允许被嵌入，或暂时无法访问。", { name })}</span>{" "}
        <a class="link link-primary" href={href} target="_blank" rel="noopener noreferrer" safe>
          {t("在新窗口打开")}
        </a>
      </p>
      <iframe src={href} title={name} class="h-[calc(100vh-11rem)] w-full rounded border-0" allow="clipboard-write"></iframe>
    </div>,
    [origin],
  );
}

export async function chatRedirectPage(context: SignedInPageContext): Promise<Response> {
  const { t, user, status, url } = context;
  const token = await firstUsableToken(user.id);
  const render = (content: JSX.Element) => renderPage(context, { title: t("聊天") }, content);
  if (!token) return render(<Notice text={t(noTokenMessage)} redirect />);
  const link = chatRedirectLink(token.key, status.server_address || url.origin);
  if (!link) return render(<Notice text={t(missingChatLinkMessage())} />);
  return new Response(null, { status: 302, headers: { location: link, "cache-control": "no-store" } });
}
