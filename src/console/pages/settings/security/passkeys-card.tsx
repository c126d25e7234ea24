// Passkeys on the security tab (issue 28): the account's passkeys with their names, when they
// were added and last used, removing one, and adding one (the account-security script runs the
// browser's WebAuthn ceremony). The list is an htmx region refreshed after a change.
import type { PasskeyView } from "../../../../services/passkeys/passkey-store.ts";
import { formatUnixTime } from "../../../format.ts";
import type { PageContext } from "../../../page-context.ts";
import { accountSecurityIsland } from "../../../../../islands/account-security/account-security.ts";
import { ScriptIsland } from "../../../island.tsx";

export const passkeysRegionId = "passkeys-region";

export function PasskeyList(props: { context: PageContext; passkeys: PasskeyView[] }) {
  const { context, passkeys } = props;
  const { t } = context;
  return (
    <div id={passkeysRegionId} hx-get="/setting" hx-trigger="refresh" hx-target="this" hx-swap="outerHTML">
      {passkeys.length === 0 ? (
        <p class="text-base-content/60 text-sm" safe>
          {t("还没有通行密钥")}
        </p>
      ) : (
        <ul class="divide-base-200 divide-y">
          {passkeys.map((passkey) => (
            <li class="flex flex-wrap items-center justify-between gap-2 py-2">
              <div class="flex min-w-0 flex-col">
                <span class="font-medium break-all" safe>
                  {passkey.name}
                </span>
                <span class="text-base-content/60 text-xs" safe>
                  {[
                    t("添加于 {{time}}", { time: formatUnixTime(passkey.created_at, context.timeZone) }),
                    passkey.last_used_at > 0
                      ? t("上次使用 {{time}}", { time: formatUnixTime(passkey.last_used_at, context.timeZone) })
                      : t("从未使用"),
                  ].join(" · ")}
                </span>
              </div>
              <div class="flex flex-wrap items-center gap-2">
                <details class="dropdown dropdown-end">
                  <summary class="btn btn-sm btn-ghost" safe>
                    {t("重命名")}
                  </summary>
                  <form
                    class="dropdown-content bg-base-100 rounded-box z-10 flex w-64 max-w-[80vw] flex-col gap-2 p-3 shadow"
                    data-api-form={`PUT /api/user/passkeys/${passkey.id}`}
                    data-success={`refresh:#${passkeysRegionId}`}
                    data-keep
                  >
                    <input
                      class="input input-bordered input-sm w-full"
                      name="name"
                      value={passkey.name}
                      maxlength={64}
                      aria-label={t("通行密钥名称")}
                      autocomplete="off"
                    />
                    <button type="submit" class="btn btn-sm btn-primary" safe>
                      {t("保存")}
                    </button>
                  </form>
                </details>
                <button
                  type="button"
                  class="btn btn-sm btn-outline btn-error"
                  data-api-call={`DELETE /api/user/passkeys/${passkey.id}`}
                  data-confirm={t("确定要删除通行密钥「{{name}}」吗？", { name: passkey.name })}
                  data-success={`refresh:#${passkeysRegionId}`}
                  aria-label={t("删除通行密钥 {{name}}", { name: passkey.name })}
                  safe
                >
                  {t("删除")}
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function PasskeysCard(props: { context: PageContext; passkeys: PasskeyView[] }) {
  const { context } = props;
  const { t } = context;
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="passkeys-title" id="passkeys">
      <div class="card-body gap-3">
        <h2 id="passkeys-title" class="card-title" safe>
          {t("通行密钥")}
        </h2>
        <p class="text-base-content/70 text-sm" safe>
          {t("用设备的指纹、面容或安全密钥登录，无需密码；启用两步验证后也可以代替验证码。")}
        </p>
        <PasskeyList context={context} passkeys={props.passkeys} />
        <ScriptIsland of={accountSecurityIsland} />
        <form class="flex flex-wrap items-end gap-2" data-passkey-register data-unsupported-text={t("此浏览器不支持通行密钥")}>
          <label class="form-control min-w-0 flex-1">
            <span class="label-text mb-1 block text-sm" safe>
              {t("通行密钥名称")}
            </span>
            <input class="input input-bordered w-full" name="name" maxlength={64} placeholder={t("例如：我的笔记本")} autocomplete="off" />
          </label>
          <button type="submit" class="btn btn-primary" safe>
            {t("添加通行密钥")}
          </button>
        </form>
      </div>
    </section>
  );
}
