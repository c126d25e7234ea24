// "/user/edit/{id}" and "/user/edit" (admin): with an id, an admin edits a
// lower user's names, password, group and quota (an added amount, may be negative; the server
// keeps the total at or above zero); social ids are read-only; the user's sessions can be ended
// and (root) their two-factor reset. Without an id it edits yourself.
import { isAppError } from "../../../errors/app-error.ts";
import { getUserForAdmin } from "../../../services/users/user-admin.ts";
import { toUserView, type UserView } from "../../../services/users/user-view.ts";
import { FormCard } from "../../components/form-card.tsx";
import { TextField } from "../../components/form-fields.tsx";
import { formatQuotaDisplay } from "../../format.ts";
import type { AdminPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { renderForbiddenPage, renderNotFoundPage } from "../error-page.tsx";
import { groupNames } from "../../../services/groups/user-groups.ts";
import { QuotaField } from "../../components/quota-field.tsx";
import { CaptureField } from "../../components/capture-field.tsx";
import { totpEnabled } from "../../../services/two-factor/totp-accounts.ts";
import { UserSecurityActions } from "./user-security-actions.tsx";

function BoundAccounts(props: { context: AdminPageContext; user: UserView }) {
  const { t } = props.context;
  const { user } = props;
  const fields: [string, string][] = [
    [t("已绑定的邮箱账户"), user.email],
    [t("已绑定的 GitHub 账户"), user.github_id],
    [t("已绑定的 LinuxDO 账户"), user.linux_do_id],
    [t("已绑定的微信账户"), user.wechat_id],
    [t("已绑定的 Telegram 账户"), user.telegram_id],
    [t("已绑定的 OIDC 账户"), user.oidc_id],
  ];
  return (
    <fieldset class="grid gap-3 sm:grid-cols-2">
      <legend class="text-base-content/60 mb-2 text-sm" safe>
        {t("以下信息不可修改")}
      </legend>
      {fields.map(([label, value]) => (
        <TextField name="" label={label} value={value || t("未绑定")} readonly />
      ))}
    </fieldset>
  );
}

function FormButtons(props: { context: AdminPageContext }) {
  const { t } = props.context;
  return (
    <div class="flex gap-2">
      <button type="submit" class="btn btn-primary" safe>
        {t("提交")}
      </button>
      <a href="/user" class="btn" safe>
        {t("取消")}
      </a>
    </div>
  );
}

export async function userEditPage(context: AdminPageContext, params: Record<string, string | undefined>): Promise<Response> {
  const { t, status } = context;
  if (params?.id === undefined) return selfEditPage(context);
  let user: UserView;
  try {
    user = await getUserForAdmin(context.user, Number(params.id));
  } catch (error) {
    if (isAppError(error)) return error.kind === "not_found" ? renderNotFoundPage(context) : renderForbiddenPage(context);
    throw error;
  }
  return renderPage(
    context,
    { title: t("编辑用户") },
    <FormCard wide title={t("编辑用户")}>
      <form method="post" class="flex flex-col gap-3" data-api-form="PUT /api/user/" data-success="redirect:/user" novalidate>
        <input type="hidden" name="id" value={String(user.id)} data-json-type="number" />
        <TextField name="username" label={t("用户名")} value={user.username} maxlength={12} autocomplete="off" />
        <TextField name="display_name" label={t("显示名称")} value={user.display_name} maxlength={20} autocomplete="off" />
        <TextField
          name="password"
          label={t("密码")}
          type="password"
          placeholder={t("请输入新的密码，最短 8 位（留空则不修改）")}
          autocomplete="new-password"
        />
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("分组")}
          </span>
          <select class="select select-bordered w-full" name="group">
            {[...new Set([user.group, ...groupNames()])].map((name) => (
              <option value={name} selected={name === user.group} safe>
                {name}
              </option>
            ))}
          </select>
        </label>
        <div class="grid gap-3 sm:grid-cols-2">
          <TextField name="" label={t("剩余额度")} value={`${formatQuotaDisplay(user.quota, status)} (${user.quota})`} readonly />
          <QuotaField
            t={t}
            status={status}
            name="add_quota"
            id="user-add-quota"
            label={t("添加额度")}
            value={undefined}
            placeholder={t("可为负数，留空则不修改")}
          />
        </div>
        <CaptureField t={t} id="user-capture-until" captureUntil={user.capture_until} />
        <BoundAccounts context={context} user={user} />
        <FormButtons context={context} />
      </form>
      <UserSecurityActions context={context} user={user} twoFactorEnabled={await totpEnabled(user.id)} />
    </FormCard>,
  );
}

function selfEditPage(context: AdminPageContext): Response {
  const { t } = context;
  const user = toUserView(context.user);
  return renderPage(
    context,
    { title: t("编辑个人信息") },
    <FormCard wide title={t("编辑个人信息")}>
      <form method="post" class="flex flex-col gap-3" data-api-form="PUT /api/user/self" data-success="reload" novalidate>
        <TextField name="" label={t("用户名")} value={user.username} readonly />
        <TextField name="display_name" label={t("显示名称")} value={user.display_name} maxlength={20} autocomplete="off" />
        <TextField
          name="password"
          label={t("新密码")}
          type="password"
          placeholder={t("请输入新的密码，最短 8 位（留空则不修改）")}
          autocomplete="new-password"
        />
        <TextField name="password2" label={t("确认新密码")} type="password" autocomplete="new-password" />
        <BoundAccounts context={context} user={user} />
        <FormButtons context={context} />
      </form>
    </FormCard>,
  );
}
