// The token list region of /token: one row per token with its key (hidden until asked), status,
// quotas, times and actions; htmx refreshes it after every change.
import { DataTable, type Column } from "../../components/data-table.tsx";
import { formatQuotaDisplay } from "../../format.ts";
import { fragmentResponse, pagingOf } from "../../fragment.ts";
import { PeriodUsage } from "./token-limit-fields.tsx";
import type { SignedInPageContext } from "../../page-context.ts";
import { chatLinkName, chatLinks, fillChatLink, missingChatLinkMessage } from "../../../services/tokens/chat-links.ts";
import { queryTokens, toTokenView, TokenStatus, type TokenView } from "../../../services/tokens/token-queries.ts";
import { LocalTime } from "../../components/local-time.tsx";

export const tokenTableId = "token-table";

const statusLabels: Record<number, [string, string]> = {
  [TokenStatus.enabled]: ["已启用", "badge-success"],
  [TokenStatus.disabled]: ["已禁用", "badge-neutral"],
  [TokenStatus.expired]: ["已过期", "badge-warning"],
  [TokenStatus.exhausted]: ["已耗尽", "badge-warning"],
};

export function maskedKey(key: string): string {
  return `sk-${key.slice(0, 4)}**********${key.slice(-4)}`;
}

/** The configured chat links with {key} and {address} filled in (the row's chat action). */
function chatLinksFor(context: SignedInPageContext, key: string): { name: string; href: string }[] {
  const address = context.status.server_address || context.url.origin;
  return chatLinks().map((link) => ({ name: chatLinkName(link.name, context.t), href: fillChatLink(link.template, key, address) }));
}

function ChatMenu(props: { context: SignedInPageContext; token: TokenView }) {
  const { t } = props.context;
  const links = chatLinksFor(props.context, props.token.key);
  if (links.length === 0) {
    return (
      <button type="button" class="btn btn-ghost btn-xs" disabled title={t(missingChatLinkMessage())} safe>
        {t("聊天")}
      </button>
    );
  }
  return (
    <details class="dropdown dropdown-end">
      <summary class="btn btn-ghost btn-xs" safe>
        {t("聊天")}
      </summary>
      <ul class="menu dropdown-content bg-base-100 rounded-box z-10 w-52 p-2 shadow">
        {links.map((link) => (
          <li>
            <a href={link.href} target="_blank" rel="noopener noreferrer" safe>
              {link.name}
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

function Actions(props: { context: SignedInPageContext; token: TokenView }) {
  const { context, token } = props;
  const { t } = context;
  const enabled = token.status === TokenStatus.enabled;
  // An expired or used-up token cannot be enabled (the server refuses): only editing its expiry
  // or quota brings it back, so there is no Enable button to press in vain.
  const switchable = enabled || token.status === TokenStatus.disabled;
  return (
    <div class="flex flex-wrap items-center gap-1">
      <button type="button" class="btn btn-ghost btn-xs" data-copy={`sk-${token.key}`} safe>
        {t("复制")}
      </button>
      <ChatMenu context={context} token={token} />
      {switchable ? (
        <button
          type="button"
          class="btn btn-ghost btn-xs"
          data-api-call="PUT /api/token/?status_only=true"
          data-body={JSON.stringify({ id: token.id, status: enabled ? TokenStatus.disabled : TokenStatus.enabled })}
          data-success={`refresh:#${tokenTableId}`}
          safe
        >
          {enabled ? t("禁用") : t("启用")}
        </button>
      ) : (
        ""
      )}
      <button
        type="button"
        class="btn btn-ghost btn-xs"
        hx-get={`/token?drawer=${token.id}`}
        hx-target="#token-drawer-slot"
        hx-swap="innerHTML"
        safe
      >
        {t("编辑")}
      </button>
      <button
        type="button"
        class="btn btn-ghost btn-xs text-error"
        data-api-call={`DELETE /api/token/${token.id}`}
        data-confirm={t("确定要删除令牌 {{name}} 吗？", { name: token.name })}
        data-success={`refresh:#${tokenTableId}`}
        safe
      >
        {t("删除")}
      </button>
    </div>
  );
}

export async function TokenTable(props: { context: SignedInPageContext }): Promise<JSX.Element> {
  const { context } = props;
  const { t, status } = context;
  const query = context.url.searchParams;
  const paging = pagingOf(context);
  const { items, total } = await queryTokens(
    context.user.id,
    { keyword: query.get("keyword") ?? "", token: query.get("token") ?? "" },
    paging,
  );
  const columns: Column<TokenView>[] = [
    {
      header: "",
      cell: (token) => (
        <input
          type="checkbox"
          class="checkbox checkbox-sm"
          data-row
          value={String(token.id)}
          data-copy={`sk-${token.key}`}
          aria-label={token.name}
        />
      ),
      class: "w-8",
    },
    {
      header: t("名称"),
      cell: (token) => (
        <span class="font-medium" safe>
          {token.name}
        </span>
      ),
    },
    {
      header: t("状态"),
      cell: (token) => {
        const [label, style] = statusLabels[token.status] ?? ["未知状态", "badge-ghost"];
        return (
          <span class="flex flex-wrap gap-1">
            <span class={`badge badge-sm whitespace-nowrap ${style}`} safe>
              {t(label)}
            </span>
            {token.status === TokenStatus.enabled && token.model_limits_enabled ? (
              <span class="badge badge-sm badge-info whitespace-nowrap" safe>
                {t("限制模型")}
              </span>
            ) : (
              ""
            )}
          </span>
        );
      },
    },
    {
      header: t("密钥"),
      cell: (token) => (
        <details class="font-mono text-xs">
          <summary class="cursor-pointer" title={t("查看")} safe>
            {maskedKey(token.key)}
          </summary>
          <span class="break-all select-all" safe>{`sk-${token.key}`}</span>
        </details>
      ),
    },
    { header: t("已用额度"), cell: (token) => <span safe>{formatQuotaDisplay(token.used_quota, status)}</span> },
    {
      header: t("剩余额度"),
      cell: (token) => <span safe>{token.unlimited_quota ? t("无限制") : formatQuotaDisplay(token.remain_quota, status)}</span>,
    },
    { header: t("周期额度"), cell: (token) => <PeriodUsage context={context} token={token} /> },
    {
      header: t("创建时间"),
      cell: (token) => (
        <span class="whitespace-nowrap">
          <LocalTime seconds={token.created_time} zone={context.timeZone} />
        </span>
      ),
    },
    {
      header: t("过期时间"),
      cell: (token) => (
        <span class="whitespace-nowrap">
          {token.expired_time === -1 ? (
            <span safe>{t("永不过期")}</span>
          ) : (
            <LocalTime seconds={token.expired_time} zone={context.timeZone} />
          )}
        </span>
      ),
    },
    { header: t("操作"), cell: (token) => <Actions context={context} token={token} />, card: "actions" },
  ];
  return (
    <DataTable
      id={tokenTableId}
      t={t}
      url={context.url}
      columns={columns}
      rows={items.map(toTokenView)}
      rowClass={(token) => (token.status === TokenStatus.enabled ? "" : "bg-base-200/60")}
      emptyText={t("暂无令牌")}
      paging={{ ...paging, total }}
    />
  );
}

export async function tokenTableFragment(context: SignedInPageContext): Promise<Response> {
  return fragmentResponse(context, await TokenTable({ context }));
}
