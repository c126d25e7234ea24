// The footer: the admin's own HTML (sanitised) when set, else the default credit line.
import { compatibleVersion } from "../../version.ts";
import { sanitizeAdminHtml } from "../components/rich-content.tsx";
import type { PageContext } from "../page-context.ts";

export function Footer(props: { context: PageContext }) {
  const { t, status } = props.context;
  const custom = status.footer_html.trim();
  return (
    <footer class="text-base-content/60 border-base-300 border-t px-4 py-3 text-center text-sm" id="footer">
      {custom ? (
        <div class="prose prose-sm max-w-none">{sanitizeAdminHtml(custom) as "safe"}</div>
      ) : (
        <p>
          <span safe>{status.system_name}</span> v{compatibleVersion} ·{" "}
          <span safe>{t("由 Switchyard 驱动，一个二进制即可部署的 AI 模型网关")}</span>
        </p>
      )}
    </footer>
  );
}
