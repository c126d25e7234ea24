// "/setting?tab=...": the settings tabs the user may see, personal by default.
import { isRoot } from "../../../services/users/roles.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { renderForbiddenPage } from "../error-page.tsx";
import { fragmentResponse, fragmentTarget } from "../../fragment.ts";
import { settingsTabs } from "./settings-tabs.ts";

export async function settingsPage(context: SignedInPageContext): Promise<Response> {
  const { t, user } = context;
  const visible = settingsTabs.filter((tab) => !tab.rootOnly || isRoot(user.role));
  const requested = context.url.searchParams.get("tab") ?? "personal";
  const tab = settingsTabs.find((candidate) => candidate.key === requested) ?? settingsTabs[0]!;
  if (!visible.includes(tab)) return renderForbiddenPage(context);
  const target = fragmentTarget(context.request);
  const fragment = target && tab.fragment ? await tab.fragment(context, target) : undefined;
  if (fragment !== undefined) return fragmentResponse(context, fragment);
  // Rendered by our own components, which escape what they show.
  const safeTabContent = await tab.render(context);
  return renderPage(
    context,
    { title: t("设置"), htmx: true, ...tab.pageOptions?.(context) },
    <div class="flex flex-col gap-4">
      <div role="tablist" class="tabs tabs-box w-fit max-w-full overflow-x-auto">
        {visible.map((candidate) => (
          <a
            role="tab"
            href={`/setting?tab=${candidate.key}`}
            class={`tab ${candidate === tab ? "tab-active" : ""}`}
            aria-selected={candidate === tab ? "true" : "false"}
            safe
          >
            {t(candidate.label)}
          </a>
        ))}
      </div>
      <div id="settings-tab">{safeTabContent}</div>
    </div>,
  );
}
