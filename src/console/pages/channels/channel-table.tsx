// The channel list region of /channel. In tag mode each tag gets a parent row (enable all,
// disable all, edit tag, priority and weight for the whole tag) above its channels. The region
// reloads itself on "refresh", like every DataTable.
import type { PageContext } from "../../page-context.ts";
import { isFiltered } from "../../components/data-table.tsx";
import { Pagination } from "../../components/pagination.tsx";
import { fragmentResponse, pagingOf } from "../../fragment.ts";
import { queryChannels, toChannelView, type ChannelView } from "../../../services/channels/channel-queries.ts";
import { splitList } from "../../../services/channels/channel-input.ts";
import { ActionsCell, channelTableId, NumberCell, QuotaCell, ResponseTimeCell, StatusCell, typeName } from "./channel-cells.tsx";
import { type ChoosableColumn, hiddenColumns, visibleColumns } from "../../components/column-chooser.tsx";

export type ChannelListOptions = { idSort: boolean; tagMode: boolean; batch: boolean };

function cookieFlag(context: PageContext, name: string): boolean {
  return new RegExp(`(?:^|;\\s*)${name}=true(?:;|$)`).test(context.request.headers.get("cookie") ?? "");
}

/** Toggles from the query, else (for ID sort) the remembered choice. */
export function listOptions(context: PageContext): ChannelListOptions {
  const query = context.url.searchParams;
  const flag = (name: string) => query.get(name) === "true" || query.get(name) === "on";
  return {
    idSort: query.has("id_sort") ? flag("id_sort") : cookieFlag(context, "id-sort"),
    tagMode: flag("tag_mode"),
    batch: flag("batch"),
  };
}

/** The columns a browser may hide (components/column-chooser.tsx); the actions always show. */
type ChannelColumn = { key: string; header: string; cell: (channel: ChannelView, child: boolean) => JSX.Element | string };

function channelColumns(context: PageContext): ChannelColumn[] {
  const { t, status } = context;
  return [
    { key: "id", header: "ID", cell: (channel) => <span safe>{String(channel.id)}</span> },
    {
      key: "name",
      header: t("名称"),
      cell: (channel) => (
        <span class="inline-block max-w-36 truncate align-middle font-medium whitespace-nowrap" title={channel.name} safe>
          {channel.name}
        </span>
      ),
    },
    {
      key: "group",
      header: t("分组"),
      // Every group shows: the badges wrap rather than being cut off, but only past two short
      // ones (the minimum width keeps "default vip" on one line when the table is squeezed).
      cell: (channel) => (
        <span class="flex min-w-28 max-w-40 flex-wrap gap-1" title={channel.group}>
          {splitList(channel.group).map((group) => (
            <span class="badge badge-sm badge-outline whitespace-nowrap" safe>
              {group}
            </span>
          ))}
        </span>
      ),
    },
    {
      key: "type",
      header: t("类型"),
      cell: (channel) => (
        <span class="whitespace-nowrap" safe>
          {typeName(t, channel.type)}
        </span>
      ),
    },
    { key: "status", header: t("状态"), cell: (channel) => <StatusCell t={t} channel={channel} /> },
    { key: "response", header: t("响应时间"), cell: (channel) => <ResponseTimeCell t={t} channel={channel} /> },
    { key: "quota", header: t("已用/剩余"), cell: (channel) => <QuotaCell t={t} channel={channel} status={status} /> },
    {
      key: "priority",
      header: t("优先级"),
      cell: (channel) => <NumberCell t={t} name="priority" value={channel.priority} channelId={channel.id} />,
    },
    {
      key: "weight",
      header: t("权重"),
      cell: (channel) => <NumberCell t={t} name="weight" value={channel.weight} channelId={channel.id} />,
    },
  ];
}

/** The column chooser's entries for the channel table. */
export function channelColumnChoices(context: PageContext): ChoosableColumn[] {
  return channelColumns(context).map(({ key, header }) => ({ key, label: header }));
}

// Cells carry their column's name (data-label) for the phone cards, where the header is hidden.
function ChannelRow(props: { context: PageContext; channel: ChannelView; batch: boolean; columns: ChannelColumn[]; child?: boolean }) {
  const { context, channel, batch, columns } = props;
  const { t } = context;
  return (
    <tr
      class={`whitespace-nowrap ${channel.status === 1 ? "" : "bg-base-200/70 text-base-content/70"}`}
      data-channel-row={String(channel.id)}
    >
      {batch ? (
        <td>
          <input type="checkbox" class="checkbox checkbox-sm" data-row value={String(channel.id)} aria-label={channel.name} />
        </td>
      ) : (
        ""
      )}
      {columns.map((column) => (
        <td class={column.key === "name" && props.child ? "pl-6" : ""} data-label={column.header} data-col={column.key}>
          {column.cell(channel, props.child === true) as "safe"}
        </td>
      ))}
      <td>
        <ActionsCell t={t} channel={channel} />
      </td>
    </tr>
  );
}

function TagRow(props: { context: PageContext; tag: string; members: ChannelView[]; batch: boolean; columns: ChannelColumn[] }) {
  const { context, tag, members, batch } = props;
  const { t } = context;
  const enabled = members.filter((channel) => channel.status === 1).length;
  const refresh = `refresh:#${channelTableId}`;
  const cells: Record<string, JSX.Element | string> = {
    name: (
      <>
        <span class="badge badge-primary badge-sm mr-1" safe>
          {t("标签")}
        </span>
        <span safe>{tag}</span>
      </>
    ),
    group: (
      <span class="text-base-content/60 text-xs" safe>
        {t("{{count}} 个渠道", { count: members.length })}
      </span>
    ),
    status: (
      <span class="text-xs" safe>
        {t("{{enabled}}/{{count}} 已启用", { enabled, count: members.length })}
      </span>
    ),
    priority: <NumberCell t={t} name="priority" value={members[0]!.priority} tag={tag} />,
    weight: <NumberCell t={t} name="weight" value={members[0]!.weight} tag={tag} />,
  };
  return (
    <tr class="bg-base-200 font-medium" data-tag-row={tag}>
      {batch ? <td></td> : ""}
      {props.columns.map((column) => (
        <td data-col={column.key}>{(cells[column.key] ?? "") as "safe"}</td>
      ))}
      <td>
        {/* Like a channel row: the usual action visible, enabling and disabling all in the menu. */}
        <div class="flex flex-nowrap items-center gap-1 whitespace-nowrap">
          <button
            type="button"
            class="btn btn-ghost btn-xs"
            hx-get={`/channel?tag_edit=${encodeURIComponent(tag)}`}
            hx-target="#channel-dialog-slot"
            hx-swap="innerHTML"
            safe
          >
            {t("编辑标签")}
          </button>
          <details class="dropdown dropdown-end">
            <summary class="btn btn-ghost btn-xs" aria-label={t("更多操作")} title={t("更多操作")}>
              {"⋯"}
            </summary>
            <ul class="menu dropdown-content bg-base-100 rounded-box z-20 w-36 p-2 shadow">
              <li>
                <button
                  type="button"
                  data-api-call="POST /api/channel/tag/enabled"
                  data-body={JSON.stringify({ tag })}
                  data-success={refresh}
                  safe
                >
                  {t("启用全部")}
                </button>
              </li>
              <li>
                <button
                  type="button"
                  data-api-call="POST /api/channel/tag/disabled"
                  data-body={JSON.stringify({ tag })}
                  data-success={refresh}
                  safe
                >
                  {t("禁用全部")}
                </button>
              </li>
            </ul>
          </details>
        </div>
      </td>
    </tr>
  );
}

/** Batch mode's tools, inside the region so they come and go with the row checkboxes. */
function BatchButtons(props: { context: PageContext }) {
  const { t } = props.context;
  const table = `#${channelTableId}`;
  return (
    <div class="mb-2 flex flex-wrap gap-2">
      <button
        type="button"
        class="btn btn-error btn-sm"
        data-api-selected="POST /api/channel/batch"
        data-selected={`${table} input[data-row]:checked`}
        data-empty-message={t("请先选择要删除的通道！")}
        data-confirm={t("确定要删除所选的渠道吗？")}
        data-success={`refresh:${table}`}
        safe
      >
        {t("删除所选渠道")}
      </button>
      <button type="button" class="btn btn-sm" data-open-dialog="#batch-tag-dialog" safe>
        {t("批量设置标签")}
      </button>
    </div>
  );
}

/** Consecutive channels sharing a tag become one group (the query keeps them together). */
function groupsOf(channels: ChannelView[]): { tag: string | null; members: ChannelView[] }[] {
  const groups: { tag: string | null; members: ChannelView[] }[] = [];
  for (const channel of channels) {
    const last = groups.at(-1);
    if (channel.tag && last?.tag === channel.tag) last.members.push(channel);
    else groups.push({ tag: channel.tag || null, members: [channel] });
  }
  return groups;
}

export async function ChannelTable(props: { context: PageContext }): Promise<JSX.Element> {
  const { context } = props;
  const { t, url } = context;
  const options = listOptions(context);
  const query = url.searchParams;
  const paging = pagingOf(context);
  const { items, total } = await queryChannels(
    { keyword: query.get("keyword") ?? "", model: query.get("model") ?? "", group: query.get("group") ?? "" },
    { idSort: options.idSort, tagMode: options.tagMode },
    paging,
  );
  const channels = items.map(toChannelView);
  const columns = visibleColumns(channelColumns(context), hiddenColumns(context, channelTableId));
  const headers = [...columns.map((column) => column.header), t("操作")];
  const rows = options.tagMode
    ? groupsOf(channels).map((group) =>
        group.tag ? (
          <>
            <TagRow context={context} tag={group.tag} members={group.members} batch={options.batch} columns={columns} />
            {group.members.map((channel) => (
              <ChannelRow context={context} channel={channel} batch={options.batch} columns={columns} child />
            ))}
          </>
        ) : (
          <ChannelRow context={context} channel={group.members[0]!} batch={options.batch} columns={columns} />
        ),
      )
    : channels.map((channel) => <ChannelRow context={context} channel={channel} batch={options.batch} columns={columns} />);
  return (
    <div id={channelTableId} hx-get={`${url.pathname}${url.search}`} hx-trigger="refresh" hx-target="this" hx-swap="outerHTML">
      {options.batch ? <BatchButtons context={context} /> : ""}
      {/* Wide screens need no scrolling (rows are compact), and row menus must not be clipped. */}
      <div class="overflow-x-auto lg:overflow-visible">
        {/* Narrower cell padding than table-sm's: eleven columns fit 1366 px in either language. */}
        <table class="table table-sm [&_td]:px-1.5 [&_th]:px-1.5 [&_th]:whitespace-normal">
          <thead>
            <tr>
              {options.batch ? (
                <th class="w-8">
                  <input
                    type="checkbox"
                    class="checkbox checkbox-sm"
                    data-select-all={`#${channelTableId} input[data-row]`}
                    aria-label={t("全选")}
                  />
                </th>
              ) : (
                ""
              )}
              {headers.map((header) => (
                <th safe>{header}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {channels.length === 0 ? (
              <tr>
                <td colspan={String(headers.length + 1)} class="text-base-content/60 py-8 text-center">
                  <span safe>{t("暂无渠道")}</span>
                  {isFiltered(url) ? (
                    <a href={url.pathname} class="btn btn-sm btn-ghost ml-2" safe>
                      {t("清除筛选")}
                    </a>
                  ) : (
                    ""
                  )}
                </td>
              </tr>
            ) : (
              (rows as "safe"[])
            )}
          </tbody>
        </table>
      </div>
      <Pagination t={t} url={url} target={channelTableId} page={paging.page} pageSize={paging.pageSize} total={total} />
    </div>
  );
}

export async function channelTableFragment(context: PageContext): Promise<Response> {
  return fragmentResponse(context, await ChannelTable({ context }));
}
