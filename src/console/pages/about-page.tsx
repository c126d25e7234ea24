// "/about": the admin's About content, or a note on where to set it.
import { optionText } from "../../services/options/options.ts";
import { RichContent } from "../components/rich-content.tsx";
import type { PageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";

export function aboutPage(context: PageContext): Response {
  const { t } = context;
  const about = optionText("About");
  return renderPage(
    context,
    { title: t("关于") },
    <div class="card bg-base-100 shadow-sm">
      <div class="card-body">
        {about.trim() ? (
          <RichContent source={about} frameTitle={t("关于")} />
        ) : (
          <div class="prose max-w-none">
            <h1 safe>{t("关于")}</h1>
            <p safe>{t("可在设置页面设置关于内容，支持 HTML & Markdown")}</p>
          </div>
        )}
      </div>
    </div>,
  );
}
