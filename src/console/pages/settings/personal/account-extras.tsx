// The end of the personal tab: the models this account may call (first 10 tags, then "more N",
// filled from GET /api/user/models by the browser) and deleting the account, confirmed by
// typing the username.
import { isRoot } from "../../../../services/users/roles.ts";
import { Modal } from "../../../components/modal.tsx";
import type { SignedInPageContext } from "../../../page-context.ts";

export function ModelsCard(props: { context: SignedInPageContext }) {
  const { t } = props.context;
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="models-title">
      <div class="card-body">
        <h2 id="models-title" class="card-title" safe>
          {t("可用模型")}
        </h2>
        <div
          class="flex flex-wrap gap-1"
          data-user-models
          data-empty-text={t("暂无可用模型")}
          data-more-text={t("更多 {{count}} 个模型", { count: "{{count}}" })}
        >
          <span class="loading loading-dots loading-sm" aria-hidden="true"></span>
        </div>
      </div>
    </section>
  );
}

export function DeleteAccountCard(props: { context: SignedInPageContext }) {
  const { t, user } = props.context;
  if (isRoot(user.role)) return "";
  return (
    <section class="card bg-base-100 border-error/40 border shadow-sm" aria-labelledby="delete-title">
      <div class="card-body">
        <h2 id="delete-title" class="card-title text-error" safe>
          {t("删除账户")}
        </h2>
        <p class="text-base-content/70 text-sm" safe>
          {t("此操作不可逆：账户将被注销，用户名和绑定的账户不能再次使用。")}
        </p>
        <button type="button" class="btn btn-error btn-outline w-fit" data-open-dialog="#delete-account" safe>
          {t("删除账户")}
        </button>
        <Modal id="delete-account" t={t} title={t("确认删除账户")}>
          <form
            class="flex flex-col gap-3"
            data-api-form="DELETE /api/user/self"
            data-success="event:account-deleted"
            data-done-text={t("账户已删除！")}
            novalidate
          >
            <label class="form-control w-full">
              <span class="label-text mb-1 block text-sm" safe>
                {t("请输入你的账户名以确认删除")}
              </span>
              <input class="input input-bordered w-full" name="username" autocomplete="off" placeholder={user.username} />
            </label>
            <div class="modal-action">
              <button type="submit" class="btn btn-error" safe>
                {t("删除账户")}
              </button>
            </div>
          </form>
        </Modal>
      </div>
    </section>
  );
}
