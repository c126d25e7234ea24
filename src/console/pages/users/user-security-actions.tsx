// On an admin's edit page of a user (issue 28): end every session of that user, and, for root,
// reset the user's two-factor when they lost their authenticator.
import { isRoot } from "../../../services/users/roles.ts";
import type { UserView } from "../../../services/users/user-view.ts";
import type { AdminPageContext } from "../../page-context.ts";

export function UserSecurityActions(props: { context: AdminPageContext; user: UserView; twoFactorEnabled: boolean }) {
  const { context, user, twoFactorEnabled } = props;
  const { t } = context;
  return (
    <section class="border-base-200 flex flex-col gap-2 border-t pt-3" aria-labelledby="user-security-title">
      <h2 id="user-security-title" class="font-semibold" safe>
        {t("账户安全")}
      </h2>
      <p class="text-base-content/70 text-sm" safe>
        {twoFactorEnabled ? t("该用户已启用两步验证") : t("该用户未启用两步验证")}
      </p>
      <div class="flex flex-wrap gap-2">
        <button
          type="button"
          class="btn btn-sm btn-outline"
          data-api-call={`DELETE /api/user/${user.id}/sessions`}
          data-confirm={t("确定要结束该用户的所有会话吗？该用户需要重新登录。")}
          data-success="toast"
          safe
        >
          {t("结束所有会话")}
        </button>
        {isRoot(context.user.role) && twoFactorEnabled ? (
          <button
            type="button"
            class="btn btn-sm btn-outline btn-warning"
            data-api-call={`DELETE /api/user/${user.id}/2fa`}
            data-confirm={t("确定要重置该用户的两步验证吗？该用户之后只需密码即可登录，直到重新启用。")}
            data-success="reload"
            safe
          >
            {t("重置两步验证")}
          </button>
        ) : (
          ""
        )}
      </div>
    </section>
  );
}
