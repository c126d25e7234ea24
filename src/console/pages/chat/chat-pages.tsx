// "/chat/{id}": the admin's chat link number id embedded in a frame, filled with the user's first
// enabled token and the server address; "/chat2link": the same link opened directly (spec §2,
// §8 Chat page). Visitors and users without a usable token get the specification's messages.
import { chatLinks, chatRedirectLink, fillChatLink, missingChatLinkMessage } from "../../../services/tokens/chat-links.ts";
import { firstUsableToken } from "../../../services/tokens/token-queries.ts";
import type { PageContext } from "../../page-context.ts";
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
  const title = link?.name ?? t("聊天");
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
        <a class="btn btn-primary" href={href} safe>{t("打开 {{name}}", { name: link.name })}</a>
      </div>,
    );
  }
  return render(<iframe src={href} title={link.name} class="h-[calc(100vh-9rem)] w-full rounded border-0" allow="clipboard-write"></iframe>, [origin]);
}

export async function chatRedirectPage(context: PageContext): Promise<Response> {
  const { t, user, status, url } = context;
  const token = await firstUsableToken(user!.id);
  const render = (content: JSX.Element) => renderPage(context, { title: t("聊天") }, content);
  if (!token) return render(<Notice text={t(noTokenMessage)} redirect />);
  const link = chatRedirectLink(token.key, status.server_address || url.origin);
  if (!link) return render(<Notice text={t(missingChatLinkMessage())} />);
  return new Response(null, { status: 302, headers: { location: link, "cache-control": "no-store" } });
}
