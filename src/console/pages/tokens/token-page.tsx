// "/token": the signed-in user's tokens: the warning, search by name and
// key, add and copy-selected, the table, and the drawer swapped in by htmx for add and edit.
import { fragmentTarget } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { tokenDrawerFragment } from "./token-drawer.tsx";
import { TokenTable, tokenTableFragment, tokenTableId } from "./token-table.tsx";
import { FirstToken, firstTokenFragment, firstTokenId } from "../first-run/empty-states.tsx";
import { GettingStartedCard, gettingStartedNextStep } from "../first-run/getting-started-card.tsx";

export async function tokenPage(context: SignedInPageContext): Promise<Response> {
  const { t, url } = context;
  const target = fragmentTarget(context.request);
  const drawer = url.searchParams.get("drawer");
  if (target === "token-drawer-slot" && drawer) return tokenDrawerFragment(context, drawer);
  if (target === tokenTableId) return tokenTableFragment(context);
  if (target === firstTokenId) return firstTokenFragment(context);
  // Rendered by our own component, which escapes what it shows.
  const safeTable = await TokenTable({ context });
  const safeGettingStarted = await GettingStartedCard({ context });
  const next = await gettingStartedNextStep(context);
  const safeFirstToken = await FirstToken({ context, waitForChannel: next === "channel" || next === "test" });
  return renderPage(
    context,
    { title: t("令牌", { context: "nav" }), htmx: true },
    <div class="flex flex-col gap-4">
      {safeGettingStarted}
      {safeFirstToken}
      <div role="alert" class="alert alert-warning">
        <span safe>{t("令牌无法精确控制使用额度，只允许自用，请勿直接将令牌分发给他人。")}</span>
      </div>
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body gap-3 p-4">
          <div class="flex flex-wrap items-end justify-between gap-2">
            <form
              class="flex flex-wrap items-end gap-2"
              hx-get="/token"
              hx-target={`#${tokenTableId}`}
              hx-swap="outerHTML"
              hx-push-url="true"
            >
              <input
                name="keyword"
                class="input input-bordered input-sm w-44"
                value={url.searchParams.get("keyword") ?? ""}
                placeholder={t("搜索令牌的名称 ...")}
                aria-label={t("名称")}
              />
              <input
                name="token"
                class="input input-bordered input-sm w-44"
                value={url.searchParams.get("token") ?? ""}
                placeholder={t("搜索令牌的密钥 ...")}
                aria-label={t("密钥")}
              />
              <button type="submit" class="btn btn-sm" safe>
                {t("搜索")}
              </button>
            </form>
            <div class="flex flex-wrap gap-2">
              <button
                type="button"
                class="btn btn-primary btn-sm"
                hx-get="/token?drawer=new"
                hx-target="#token-drawer-slot"
                hx-swap="innerHTML"
                safe
              >
                {t("添加令牌")}
              </button>
              <button
                type="button"
                class="btn btn-sm"
                data-copy-selected={`#${tokenTableId} input[data-row]:checked`}
                data-empty-message={t("请至少选择一个令牌！")}
                safe
              >
                {t("复制所选令牌")}
              </button>
              <button
                type="button"
                class="btn btn-sm btn-error btn-outline"
                data-api-selected="POST /api/token/batch"
                data-selected={`#${tokenTableId} input[data-row]:checked`}
                data-empty-message={t("请至少选择一个令牌！")}
                data-confirm={t("确定要删除所选的令牌吗？")}
                data-success={`refresh:#${tokenTableId}`}
                safe
              >
                {t("删除所选令牌")}
              </button>
            </div>
          </div>
          {safeTable}
        </div>
      </div>
      <div id="token-drawer-slot"></div>
    </div>,
  );
}
