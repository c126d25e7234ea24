// "/channel" (admin): search by keyword, model and group; ID sort, batch and tag-mode toggles;
// the toolbar (add, test all, balances, deletions, repair, batch tag); the table; the channel drawer island for create and edit
// (also opened at once by /channel/add and /channel/edit/{id}); the tag dialogs.
import { Island } from "../../island.tsx";
import { fragmentTarget } from "../../fragment.ts";
import type { AdminPageContext, PageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { groupNames } from "../../../services/groups/user-groups.ts";
import { unrelayableTypes } from "../../../services/channels/channel-types.ts";
import { channelDrawerIsland } from "../../../../islands/channel-drawer/channel-drawer.tsx";
import { channelTableId } from "./channel-cells.tsx";
import { ChannelTable, channelColumnChoices, channelTableFragment, listOptions } from "./channel-table.tsx";
import { BatchTagDialog, tagEditFragment } from "./tag-dialogs.tsx";
import { testDialogFragment } from "./test-dialog.tsx";
import { ColumnChooser, hiddenColumns } from "../../components/column-chooser.tsx";
import { FirstChannel, firstChannelFragment, firstChannelId } from "../first-run/empty-states.tsx";

/** A switch that always sends its state (the hidden "false" follows the box, so "true" wins when checked). */
function Toggle(props: { name: string; label: string; checked: boolean; remember?: string }) {
  return (
    <label class="label cursor-pointer gap-2 text-sm">
      <input
        type="checkbox"
        name={props.name}
        value="true"
        class="toggle toggle-sm"
        checked={props.checked}
        data-remember={props.remember}
      />
      <input type="hidden" name={props.name} value="false" />
      <span safe>{props.label}</span>
    </label>
  );
}

function Toolbar(props: { context: PageContext }) {
  const { context } = props;
  const { t, url } = context;
  const options = listOptions(context);
  const query = url.searchParams;
  const table = `#${channelTableId}`;
  const refresh = `refresh:${table}`;
  return (
    <div class="flex flex-col gap-3">
      <form
        class="flex flex-wrap items-center gap-2"
        hx-get="/channel"
        hx-target={table}
        hx-swap="outerHTML"
        hx-push-url="true"
        hx-trigger="submit, change"
      >
        <input
          name="keyword"
          class="input input-bordered input-sm w-48"
          value={query.get("keyword") ?? ""}
          placeholder={t("搜索渠道的 ID，名称和密钥 ...")}
          aria-label={t("关键字")}
        />
        <input
          name="model"
          class="input input-bordered input-sm w-40"
          value={query.get("model") ?? ""}
          placeholder={t("模型关键字")}
          aria-label={t("模型关键字")}
        />
        <select name="group" class="select select-bordered select-sm w-36" aria-label={t("分组")}>
          <option value="" safe>
            {t("全部分组")}
          </option>
          {groupNames().map((group) => (
            <option value={group} selected={query.get("group") === group} safe>
              {group}
            </option>
          ))}
        </select>
        <button type="submit" class="btn btn-sm" safe>
          {t("搜索")}
        </button>
        <Toggle name="id_sort" label={t("使用 ID 排序")} checked={options.idSort} remember="id-sort" />
        <Toggle name="batch" label={t("开启批量操作")} checked={options.batch} />
        <Toggle name="tag_mode" label={t("标签聚合模式")} checked={options.tagMode} />
      </form>
      <div class="flex flex-wrap gap-2">
        <button type="button" class="btn btn-primary btn-sm" data-channel-add safe>
          {t("添加渠道")}
        </button>
        <button
          type="button"
          class="btn btn-sm"
          data-test-all-channels
          data-confirm={t("确定要测试所有渠道吗？")}
          data-progress="#test-all-progress"
          data-progress-text={t("正在测试渠道：{{done}}/{{total}}，{{failed}} 个失败")}
          data-done-text={t("测试完成：{{passed}} 个成功，{{failed}} 个失败")}
          data-refresh-table={`#${channelTableId}`}
          safe
        >
          {t("测试所有渠道")}
        </button>
        <button
          type="button"
          class="btn btn-sm"
          data-api-call="GET /api/channel/update_balance"
          data-confirm={t("确定要更新所有已启用渠道余额吗？")}
          data-success={refresh}
          safe
        >
          {t("更新所有已启用渠道余额")}
        </button>
        <button
          type="button"
          class="btn btn-sm"
          data-api-call="DELETE /api/channel/disabled"
          data-confirm={t("确定要删除所有已禁用渠道吗？")}
          data-success={refresh}
          safe
        >
          {t("删除禁用渠道")}
        </button>
        <button type="button" class="btn btn-sm" data-refresh={table} safe>
          {t("刷新")}
        </button>
        <ColumnChooser
          t={t}
          table={channelTableId}
          columns={channelColumnChoices(context)}
          hidden={hiddenColumns(context, channelTableId)}
        />
        <button
          type="button"
          class="btn btn-sm"
          data-api-call="POST /api/channel/fix"
          data-confirm={t("确定要修复数据库一致性吗？")}
          data-success={refresh}
          safe
        >
          {t("修复数据库一致性")}
        </button>
      </div>
      <div id="test-all-progress" class="flex items-center gap-2 text-sm" role="status" hidden>
        <progress class="progress progress-primary w-40" value="0" max="1"></progress>
        <span data-progress-line></span>
      </div>
    </div>
  );
}

export async function channelPage(context: AdminPageContext, params: Record<string, string | undefined> = {}): Promise<Response> {
  const { t, url } = context;
  const target = fragmentTarget(context.request);
  const tagEdit = url.searchParams.get("tag_edit");
  if (target === "channel-dialog-slot" && tagEdit) return tagEditFragment(context, tagEdit);
  const testDialog = url.searchParams.get("test_dialog");
  if (target === "channel-dialog-slot" && testDialog && /^\d+$/.test(testDialog)) return testDialogFragment(context, Number(testDialog));
  if (target === channelTableId) return channelTableFragment(context);
  if (target === firstChannelId) return firstChannelFragment(context);
  const initial = url.pathname === "/channel/add" ? "add" : params.id && /^\d+$/.test(params.id) ? Number(params.id) : undefined;
  // Rendered by our own components, which escape what they show.
  const safeTable = await ChannelTable({ context });
  const safeFirstChannel = await FirstChannel({ context });
  return renderPage(
    context,
    { title: t("渠道", { context: "nav" }), htmx: true },
    <div class="flex flex-col gap-4">
      {safeFirstChannel}
      <div class="card bg-base-100 shadow-sm">
        <div class="card-body gap-3 p-4">
          <Toolbar context={context} />
          {safeTable}
        </div>
      </div>
      <Island
        of={channelDrawerIsland}
        props={{ language: context.language, groups: groupNames(), unrelayable: unrelayableTypes(), initial }}
      />
      <BatchTagDialog context={context} />
      <div id="channel-dialog-slot"></div>
    </div>,
  );
}
