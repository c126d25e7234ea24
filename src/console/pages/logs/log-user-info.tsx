// The dialog an admin sees after clicking a username on /log: who the user is and
// how much they have and have used. Admins only; other callers get nothing.
import { Modal } from "../../components/modal.tsx";
import { formatCount, formatQuotaDisplay } from "../../format.ts";
import { fragmentResponse } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import { findUserById } from "../../../services/users/user-queries.ts";

export async function logUserInfoFragment(context: SignedInPageContext, userId: number): Promise<Response> {
  const { t, status } = context;
  if (!isAdmin(context.user.role)) return fragmentResponse(context, <div id="log-user-slot"></div>);
  const user = Number.isInteger(userId) ? await findUserById(userId) : undefined;
  const rows: [string, string][] = user
    ? [
        [t("用户名"), user.username],
        [t("显示名称"), user.display_name],
        [t("分组"), user.group],
        [t("剩余额度"), formatQuotaDisplay(user.quota, status)],
        [t("已用额度"), formatQuotaDisplay(user.used_quota, status)],
        [t("请求次数"), formatCount(user.request_count)],
      ]
    : [];
  return fragmentResponse(
    context,
    <Modal id="log-user-info" t={t} title={t("用户信息")} open>
      {user ? (
        <dl class="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          {rows.map(([label, value]) => (
            <>
              <dt class="text-base-content/60" safe>
                {label}
              </dt>
              <dd safe>{value}</dd>
            </>
          ))}
        </dl>
      ) : (
        <p safe>{t("用户不存在")}</p>
      )}
    </Modal>,
  );
}
