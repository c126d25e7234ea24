// The console's left navigation. Collapsed to icons when the visitor (or the site default)
// asks; below 600px wide it becomes a drawer opened by the top bar's menu button.
import { Icon } from "../components/icons.tsx";
import type { PageContext } from "../page-context.ts";
import { sidebarEntries } from "./sidebar-entries.ts";
import { chatLinkName } from "../../services/tokens/chat-links.ts";

function isCurrent(context: PageContext, href: string): boolean {
  const path = context.url.pathname;
  return path === href || path.startsWith(`${href}/`);
}

/** Navigation names may differ from column names in English ("Channels" vs "Channel"). */
const navContext = { context: "nav" };

export function Sidebar(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  if (!context.user) return "";
  return (
    <aside
      id="sidebar"
      class="bg-base-100 border-base-300 fixed inset-y-0 left-0 z-30 mt-16 w-56 shrink-0 -translate-x-full overflow-x-hidden overflow-y-auto border-r transition-transform min-[601px]:static min-[601px]:mt-0 min-[601px]:translate-x-0"
      aria-label={t("导航")}
    >
      <ul class="menu w-full min-w-0 flex-nowrap gap-1 p-2">
        {sidebarEntries(context.user.role, context.status).map((entry) => {
          const children = entry.children && entry.children.length > 1 ? entry.children : [];
          // With children shown, only the current child is highlighted, not its parent too.
          const current = children.length === 0 && isCurrent(context, entry.href);
          const label = t(entry.label, navContext);
          return (
            <li>
              <a
                href={entry.href}
                class={`min-w-0 ${current ? "sidebar-current" : ""}`}
                title={label}
                aria-current={current ? "page" : undefined}
              >
                <Icon name={entry.icon} />
                <span class="sidebar-label min-w-0 truncate" safe>
                  {label}
                </span>
              </a>
              {children.length > 0 ? (
                <ul class="sidebar-label min-w-0">
                  {children.map((child) => {
                    const here = context.url.pathname === child.href;
                    const childLabel = chatLinkName(child.label, t);
                    return (
                      <li>
                        <a
                          href={child.href}
                          class={`block min-w-0 truncate ${here ? "sidebar-current" : ""}`}
                          title={childLabel}
                          aria-current={here ? "page" : undefined}
                          safe
                        >
                          {childLabel}
                        </a>
                      </li>
                    );
                  })}
                </ul>
              ) : (
                ""
              )}
            </li>
          );
        })}
      </ul>
      <div class="hidden p-2 min-[601px]:block">
        <button type="button" class="btn btn-ghost btn-sm w-full" data-action="toggle-sidebar" title={t("收起侧边栏")}>
          <Icon name={context.sidebarCollapsed ? "expand" : "collapse"} />
          <span class="sidebar-label" safe>
            {t("收起侧边栏")}
          </span>
        </button>
      </div>
    </aside>
  );
}
