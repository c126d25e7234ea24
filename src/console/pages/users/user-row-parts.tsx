// Cells of the user table: role and status badges (new-api's labels) and the row actions. Only
// the actions the viewer may take are offered (the server checks them again): none on deleted
// users or on users of the viewer's role or higher; promote for the super admin only.
import type { Translate } from "../../../i18n/i18n.ts";
import { Role, UserStatus, isRoot } from "../../../services/users/roles.ts";
import { outranks } from "../../../services/users/user-permissions.ts";
import type { UserView } from "../../../services/users/user-view.ts";
import type { AdminPageContext } from "../../page-context.ts";

export const roleLabels: Record<number, string> = { [Role.common]: "普通用户", [Role.admin]: "管理员", [Role.root]: "超级管理员" };

export function RoleBadge(props: { t: Translate; role: number }) {
  const label = roleLabels[props.role] ?? "未知身份";
  const tone = props.role >= Role.root ? "badge-warning" : props.role >= Role.admin ? "badge-info" : "badge-ghost";
  return (
    <span class={`badge badge-sm ${tone}`} safe>
      {props.t(label)}
    </span>
  );
}

export function StatusBadge(props: { t: Translate; user: UserView }) {
  const { t, user } = props;
  if (user.DeletedAt)
    return (
      <span class="badge badge-sm badge-neutral" safe>
        {t("已注销")}
      </span>
    );
  if (user.status === UserStatus.enabled)
    return (
      <span class="badge badge-sm badge-success" safe>
        {t("已激活")}
      </span>
    );
  if (user.status === UserStatus.banned)
    return (
      <span class="badge badge-sm badge-error" safe>
        {t("已封禁")}
      </span>
    );
  return (
    <span class="badge badge-sm badge-ghost" safe>
      {t("未知状态")}
    </span>
  );
}

function ActionButton(props: {
  id: number;
  action: string;
  label: string;
  tableId: string;
  confirm?: string;
  disabled?: boolean;
  tone?: string;
}) {
  return (
    <button
      type="button"
      class={`btn btn-ghost btn-xs ${props.tone ?? ""}`}
      data-api-call="POST /api/user/manage"
      data-body={JSON.stringify({ id: props.id, action: props.action })}
      data-success={`refresh:#${props.tableId}`}
      data-confirm={props.confirm}
      disabled={props.disabled}
      safe
    >
      {props.label}
    </button>
  );
}

export function UserRowActions(props: { context: AdminPageContext; user: UserView; tableId: string }) {
  const { context, user, tableId } = props;
  const { t } = context;
  const viewer = context.user;
  if (user.DeletedAt || !outranks(viewer.role, user.role)) return <span class="text-base-content/40">-</span>;
  return (
    <div class="flex flex-wrap gap-1">
      {isRoot(viewer.role) && user.role < Role.admin ? (
        <ActionButton id={user.id} action="promote" label={t("提升")} tableId={tableId} />
      ) : (
        ""
      )}
      {user.role >= Role.admin ? <ActionButton id={user.id} action="demote" label={t("降级")} tableId={tableId} /> : ""}
      {user.status === UserStatus.enabled ? (
        <ActionButton id={user.id} action="disable" label={t("禁用")} tableId={tableId} tone="text-warning" />
      ) : (
        <ActionButton
          id={user.id}
          action="enable"
          label={t("启用")}
          tableId={tableId}
          disabled={user.status === UserStatus.nonEnableable}
        />
      )}
      <a href={`/user/edit/${user.id}`} class="btn btn-ghost btn-xs" safe>
        {t("编辑")}
      </a>
      <ActionButton
        id={user.id}
        action="delete"
        label={t("注销")}
        tableId={tableId}
        tone="text-error"
        confirm={t("确定是否要注销此用户？")}
      />
    </div>
  );
}
