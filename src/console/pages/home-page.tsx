// "/": the admin's home page content (Markdown, HTML or an embedded https page), or a default
// introduction with the API address to use.
import { optionText } from "../../services/options/options.ts";
import { Icon } from "../components/icons.tsx";
import { RichContent } from "../components/rich-content.tsx";
import { GettingStartedCard } from "./first-run/getting-started-card.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

function DefaultHome(props: { context: PageContext }) {
  const { t, status, url, user } = props.context;
  const address = status.server_address || url.origin;
  return (
    <section class="hero min-h-[70vh]">
      <div class="hero-content max-w-3xl flex-col text-center">
        <Icon name="route" class="text-primary size-16" />
        <h1 class="text-4xl font-bold" safe>{status.system_name}</h1>
        <p class="text-base-content/70 text-lg" safe>{t("一个接口调用所有模型：令牌、额度、渠道与计费，一个文件即可部署。")}</p>
        <div class="mockup-code w-full text-left text-sm">
          <pre data-prefix="$"><code safe>{`curl ${address}/v1/chat/completions -H "Authorization: Bearer sk-..."`}</code></pre>
        </div>
        <div class="flex gap-2">
          <a href={user ? "/token" : "/login"} class="btn btn-primary" safe>{t("控制台")}</a>
          <a href="/pricing" class="btn" safe>{t("定价")}</a>
        </div>
      </div>
    </section>
  );
}

export async function homePage(context: PageContext): Promise<Response> {
  const content = optionText("HomePageContent");
  // Admins see their setup checklist above the page (nothing for anyone else).
  const safeGettingStarted = await GettingStartedCard({ context });
  return renderPage(
    context,
    { title: context.t("首页") },
    <>
      {safeGettingStarted}
      {content.trim() ? <RichContent source={content} frameTitle={context.t("首页")} /> : <DefaultHome context={context} />}
    </>,
  );
}
