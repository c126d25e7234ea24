// The personal tab's password and session cards. Changing a password takes the current one; an
// account created by a social sign-in has none, and says so, offering to set a first one (from a
// recent sign-in). "Sign out everywhere" ends every session of the account on every instance.
import { hasPassword } from "../../../../services/users/self-service.ts";
import { TextField } from "../../../components/form-fields.tsx";
import type { SignedInPageContext } from "../../../page-context.ts";

export function PasswordCard(props: { context: SignedInPageContext }) {
  const { t, user } = props.context;
  if (!hasPassword(user)) {
    return (
      <section class="card bg-base-100 shadow-sm" aria-labelledby="password-title">
        <div class="card-body">
          <h2 id="password-title" class="card-title" safe>
            {t("设置密码")}
          </h2>
          <p class="text-base-content/70 text-sm" safe>
            {t("你的账户通过第三方登录创建，还没有密码。设置密码后也可以用用户名和密码登录。")}
          </p>
          <form method="post" class="flex flex-col gap-2" data-api-form="POST /api/user/self/password" data-success="reload">
            <TextField name="password" label={t("新密码")} type="password" placeholder={t("8 到 20 位")} autocomplete="new-password" />
            <TextField name="password2" label={t("确认新密码")} type="password" autocomplete="new-password" />
            <button type="submit" class="btn btn-primary mt-2 w-fit" safe>
              {t("设置密码")}
            </button>
          </form>
        </div>
      </section>
    );
  }
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="password-title">
      <div class="card-body">
        <h2 id="password-title" class="card-title" safe>
          {t("修改密码")}
        </h2>
        <p class="text-base-content/70 text-sm" safe>
          {t("修改密码会让其他设备上的登录和系统访问令牌失效。")}
        </p>
        <form method="post" class="flex flex-col gap-2" data-api-form="PUT /api/user/self" data-success="toast">
          <TextField name="original_password" label={t("原密码")} type="password" autocomplete="current-password" />
          <TextField name="password" label={t("新密码")} type="password" placeholder={t("8 到 20 位")} autocomplete="new-password" />
          <TextField name="password2" label={t("确认新密码")} type="password" autocomplete="new-password" />
          <button type="submit" class="btn btn-primary mt-2 w-fit" safe>
            {t("修改密码")}
          </button>
        </form>
      </div>
    </section>
  );
}
