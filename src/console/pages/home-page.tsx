// "/": the admin's home page content (Markdown, HTML or an embedded https page), or a default
// introduction with the API address to use.
import { modelsForUserGroup } from "../../services/channels/group-models.ts";
import { optionText } from "../../services/options/options.ts";
import { Icon } from "../components/icons.tsx";
import { RichContent } from "../components/rich-content.tsx";
import { GettingStartedCard } from "./first-run/getting-started-card.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

/**
 * A call that runs as shown once $OPENAI_API_KEY holds a token: a model the default group really
 * has (the usual one when no channel serves any yet), a JSON body and its content type.
 */
function curlExample(address: string, model: string): string {
  const body = JSON.stringify({ model, messages: [{ role: "user", content: "Hello" }] }).replaceAll("'", "'\\''");
  return [
    `curl ${address}/v1/chat/completions \\`,
    `  -H "Authorization: Bearer $OPENAI_API_KEY" \\`,
    `  -H "Content-Type: application/json" \\`,
    `  -d '${body}'`,
  ].join("\n");
}

function DefaultHome(props: { context: PageContext; model: string }) {
  const { t, status, url, user } = props.context;
  const address = status.server_address || url.origin;
  return (
    <section class="hero min-h-[70vh]">
      <div class="hero-content w-full min-w-0 max-w-3xl flex-col text-center">
        <Icon name="route" class="text-primary size-16" />
        <h1 class="max-w-full text-4xl font-bold break-words max-[600px]:text-3xl" safe>
          {status.system_name}
        </h1>
        <p class="text-base-content/70 text-lg" safe>
          {t("一个接口调用所有模型：令牌、额度、渠道与计费，一个文件即可部署。")}
        </p>
        {/* The curl line wraps: on a phone it would otherwise widen the page. */}
        <div class="mockup-code w-full min-w-0 text-left text-sm">
          <pre data-prefix="$" class="w-full whitespace-pre-wrap break-all" data-curl-example>
            <code safe>{curlExample(address, props.model)}</code>
          </pre>
        </div>
        <div class="flex flex-wrap justify-center gap-2">
          <a href={user ? "/token" : "/login"} class="btn btn-primary" safe>
            {t("控制台")}
          </a>
          <a href="/pricing" class="btn" safe>
            {t("定价")}
          </a>
        </div>
      </div>
    </section>
  );
}

export async function homePage(context: PageContext): Promise<Response> {
  const content = optionText("HomePageContent");
  // Admins see their setup checklist above the page (nothing for anyone else).
  const safeGettingStarted = await GettingStartedCard({ context });
  const model = content.trim() ? "" : ((await modelsForUserGroup("default"))[0] ?? "gpt-4o-mini");
  return renderPage(
    context,
    { title: context.t("首页") },
    <>
      {safeGettingStarted}
      {content.trim() ? <RichContent source={content} frameTitle={context.t("首页")} /> : <DefaultHome context={context} model={model} />}
    </>,
  );
}
