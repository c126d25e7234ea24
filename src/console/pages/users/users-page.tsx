// "/user" (admin): search by keyword and group, the paged table
// (page size remembered), the add-user dialog and per-row actions. The table is an htmx region
// the same route renders alone for searches, paging and refreshes after an action.
import { groupNames } from "../../../services/groups/user-groups.ts";
import { listUsers } from "../../../services/users/user-admin.ts";
import type { UserView } from "../../../services/users/user-view.ts";
import { DataTable, type Column } from "../../components/data-table.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { Modal } from "../../components/modal.tsx";
import { formatCount, formatQuotaDisplay } from "../../format.ts";
import { fragmentResponse, fragmentTarget, pagingOf } from "../../fragment.ts";
import type { AdminPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { RoleBadge, StatusBadge, UserRowActions } from "./user-row-parts.tsx";

const tableId = "users-table";

function StatLine(props: { label: string; value: string }) {
  return (
    <span>
      <span class="text-base-content/60" safe>
        {props.label}
      </span>{" "}
      <span safe>{props.value}</span>
    </span>
  );
}

async function UsersTable(props: { context: AdminPageContext }) {
  const { context } = props;
  const { t, status, url } = context;
  const { page, pageSize } = pagingOf(context);
  const keyword = url.searchParams.get("keyword") ?? "";
  const group = url.searchParams.get("group") ?? "";
  const result = await listUsers({ p: page, page_size: pageSize, keyword, group });
  const columns: Column<UserView>[] = [
    { header: "ID", cell: (user) => String(user.id) },
    {
      header: t("用户名"),
      cell: (user) => (
        <div class="flex flex-col">
          <span class="font-medium" safe>
            {user.username}
          </span>
          {user.display_name && user.display_name !== user.username ? (
            <span class="text-base-content/60 text-xs" safe>
              {user.display_name}
            </span>
          ) : (
            ""
          )}
        </div>
      ),
    },
    {
      header: t("分组"),
      cell: (user) => (
        <span class="badge badge-sm badge-ghost" safe>
          {user.group}
        </span>
      ),
    },
    {
      header: t("统计信息"),
      cell: (user) => (
        <div class="flex flex-col text-xs">
          <StatLine label={t("剩余额度")} value={formatQuotaDisplay(user.quota, status)} />
          <StatLine label={t("已用额度")} value={formatQuotaDisplay(user.used_quota, status)} />
          <StatLine label={t("请求次数")} value={formatCount(user.request_count)} />
        </div>
      ),
    },
    {
      header: t("邀请信息"),
      cell: (user) => (
        <div class="flex flex-col text-xs">
          <StatLine label={t("邀请人数")} value={String(user.aff_count)} />
          <StatLine label={t("邀请总收益")} value={formatQuotaDisplay(user.aff_history_quota, status)} />
          <StatLine label={t("邀请人")} value={user.inviter_id ? String(user.inviter_id) : t("无")} />
        </div>
      ),
    },
    { header: t("角色"), cell: (user) => <RoleBadge t={t} role={user.role} /> },
    { header: t("状态"), cell: (user) => <StatusBadge t={t} user={user} /> },
    { header: t("操作"), cell: (user) => <UserRowActions context={context} user={user} tableId={tableId} />, card: "actions" },
  ];
  return (
    <DataTable
      id={tableId}
      t={t}
      url={url}
      columns={columns}
      rows={result.items}
      rowClass={(user) => (user.DeletedAt ? "opacity-60" : "")}
      emptyText={t("暂无用户")}
      paging={{ page: result.page, pageSize: result.page_size, total: result.total }}
    />
  );
}

function AddUserDialog(props: { context: AdminPageContext }) {
  const { t } = props.context;
  return (
    <Modal id="add-user" t={t} title={t("添加用户")}>
      <form method="post" class="flex flex-col gap-3" data-api-form="POST /api/user/" data-success={`refresh:#${tableId}`} novalidate>
        <TextField name="username" label={t("用户名")} placeholder={t("最长 12 位")} maxlength={12} autocomplete="off" />
        <TextField name="display_name" label={t("显示名称")} maxlength={20} autocomplete="off" />
        <TextField name="password" label={t("密码")} type="password" placeholder={t("8 到 20 位")} autocomplete="new-password" />
        <div class="modal-action">
          <button type="submit" class="btn btn-primary" safe>
            {t("提交")}
          </button>
        </div>
      </form>
    </Modal>
  );
}

export async function usersPage(context: AdminPageContext): Promise<Response> {
  const { t, url } = context;
  if (fragmentTarget(context.request) === tableId) return fragmentResponse(context, await UsersTable({ context }));
  const group = url.searchParams.get("group") ?? "";
  return renderPage(
    context,
    { title: t("用户管理"), htmx: true },
    <div class="card bg-base-100 shadow-sm">
      <div class="card-body gap-4">
        <div class="flex flex-wrap items-end justify-between gap-3">
          <h1 class="card-title text-2xl" safe>
            {t("用户管理")}
          </h1>
          <button type="button" class="btn btn-primary btn-sm" data-open-dialog="#add-user" safe>
            {t("添加用户")}
          </button>
        </div>
        <search>
          <form class="flex flex-wrap items-end gap-2" hx-get="/user" hx-target={`#${tableId}`} hx-swap="outerHTML" hx-push-url="true">
            <input
              type="search"
              class="input input-bordered input-sm w-64"
              name="keyword"
              value={url.searchParams.get("keyword") ?? ""}
              placeholder={t("搜索用户的 ID，用户名，显示名称，以及邮箱地址 ...")}
              aria-label={t("搜索")}
            />
            <select class="select select-bordered select-sm w-40" name="group" aria-label={t("分组")}>
              <option value="" safe>
                {t("全部分组")}
              </option>
              {groupNames().map((name) => (
                <option value={name} selected={name === group} safe>
                  {name}
                </option>
              ))}
            </select>
            <button type="submit" class="btn btn-sm" safe>
              {t("搜索")}
            </button>
          </form>
        </search>
        {/* Rendered by our own components, which escape what they show. */}
        {(await UsersTable({ context })) as "safe"}
      </div>
      <AddUserDialog context={context} />
    </div>,
  );
}
