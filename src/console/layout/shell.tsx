// The console frame: top bar, sidebar (signed in only), the page, the footer, the site notice
// dialog and the toast area used by the runtime.
import type { PageContext } from "../page-context.ts";
import { renderMarkdown } from "../components/rich-content.tsx";
import { Footer } from "./footer.tsx";
import { Sidebar } from "./sidebar.tsx";
import { TopBar } from "./top-bar.tsx";

function NoticeDialog(props: { context: PageContext; notice: string }) {
  const { t } = props.context;
  const notice = props.notice.trim();
  if (!notice) return "";
  const hash = new Bun.CryptoHasher("sha1").update(notice).digest("hex").slice(0, 12);
  return (
    <dialog id="notice-dialog" class="modal" data-notice-hash={hash}>
      <div class="modal-box max-w-2xl">
        <h3 class="text-lg font-bold" safe>
          {t("系统公告")}
        </h3>
        <div class="prose max-w-none py-4">{renderMarkdown(notice) as "safe"}</div>
        <div class="modal-action">
          <button type="button" class="btn" data-action="dismiss-notice" safe>
            {t("关闭公告")}
          </button>
        </div>
      </div>
    </dialog>
  );
}

/** The themed question asked by console-runtime/confirm-dialog.ts (the message is set there). */
function ConfirmDialog(props: { context: PageContext }) {
  const { t } = props.context;
  return (
    <dialog id="confirm-dialog" class="modal" aria-describedby="confirm-dialog-message">
      <form method="dialog" class="modal-box max-w-md">
        <p id="confirm-dialog-message" class="py-2 whitespace-pre-line break-words" data-confirm-message></p>
        <div class="modal-action">
          <button type="submit" value="cancel" class="btn" safe>
            {t("取消")}
          </button>
          <button type="submit" value="ok" class="btn btn-primary" safe>
            {t("确定")}
          </button>
        </div>
      </form>
      <form method="dialog" class="modal-backdrop">
        <button type="submit" value="cancel" tabindex="-1" aria-label={t("取消")}></button>
      </form>
    </dialog>
  );
}

export function Shell(props: { context: PageContext; notice: string; children?: JSX.Element }) {
  const { context } = props;
  return (
    <body class={`bg-base-200 min-h-screen ${context.sidebarCollapsed ? "sidebar-collapsed" : ""}`}>
      <TopBar context={context} />
      <div class="flex min-h-[calc(100vh-4rem)]">
        <Sidebar context={context} />
        <div id="sidebar-backdrop" class="fixed inset-0 z-20 hidden bg-black/30" data-action="toggle-sidebar"></div>
        <div class="flex min-w-0 flex-1 flex-col">
          <main id="main" class="flex-1 p-4 max-[600px]:p-2">
            {props.children as "safe"}
          </main>
          <Footer context={context} />
        </div>
      </div>
      <NoticeDialog context={context} notice={props.notice} />
      <ConfirmDialog context={context} />
      {/* Below the sticky header (app.css), so toasts never cover the theme, language and account controls. */}
      <div id="toasts" class="toast toast-top toast-end z-50" aria-live="polite" popover="manual"></div>
    </body>
  );
}
