// The token drawer of /token for creating and editing: quick expiry,
// quota presets in dollars, unlimited quota, batch count, model limits, IP allow-list, group.
// The form posts to /api/token/; the server applies every rule and answers with its message.
import { Modal } from "../../components/modal.tsx";
import { QuotaField } from "../../components/quota-field.tsx";
import { DateTimeField } from "../../components/date-time-field.tsx";
import { CaptureField } from "../../components/capture-field.tsx";
import { isAdmin } from "../../../services/users/roles.ts";
import { fragmentResponse } from "../../fragment.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { modelsForUserGroup } from "../../../services/channels/group-models.ts";
import { adminOffersGroups, selectableGroups } from "../../../services/groups/user-groups.ts";
import { findToken, type TokenRow } from "../../../services/tokens/token-queries.ts";
import { TokenLimitFields } from "./token-limit-fields.tsx";
import { tokenTableId } from "./token-table.tsx";

const expiryPresets: [string, number][] = [
  ["一小时", 3600],
  ["一天", 86400],
  ["一个月", 2592000],
];
const dollarPresets = [1, 10, 50, 100, 500, 1000];
const countPresets = [10, 20, 30, 100];

function PresetButtons(props: { items: { label: string; attributes: Record<string, string> }[] }) {
  return (
    <div class="flex flex-wrap gap-1">
      {props.items.map((item) => (
        <button type="button" class="btn btn-xs" {...item.attributes} safe>
          {item.label}
        </button>
      ))}
    </div>
  );
}

function GroupField(props: { context: SignedInPageContext; token: TokenRow | undefined }) {
  const { t, user } = props.context;
  const groups = selectableGroups(user.group);
  const names = Object.keys(groups);
  // The user's own group alone is no choice: the field exists when the admin offers groups.
  if (!adminOffersGroups() || names.length === 0)
    return (
      <p class="text-base-content/70 text-sm" safe>
        {t("管理员未设置用户可选分组")}
      </p>
    );
  const current = props.token?.group ?? "";
  return (
    <label class="form-control w-full">
      <span class="label-text mb-1 block text-sm" safe>
        {t("令牌分组")}
      </span>
      <select name="group" class="select select-bordered w-full">
        <option value="" selected={current === ""} safe>
          {t("跟随用户分组")}
        </option>
        {names.map((name) => {
          const { desc, ratio } = groups[name]!;
          // Built-in descriptions are catalog keys (read in the page's language); an admin's own stay as written.
          const description = desc ? t(desc) : "";
          return (
            <option value={name} selected={current === name} safe>
              {t("{{name}} - {{description}}（倍率 {{ratio}}）", { name, description, ratio })}
            </option>
          );
        })}
      </select>
    </label>
  );
}

async function ModelLimitField(props: { context: SignedInPageContext; token: TokenRow | undefined }) {
  const { t, user } = props.context;
  const chosen = new Set((props.token?.model_limits ?? "").split(",").filter(Boolean));
  const models = [...new Set([...(await modelsForUserGroup(user.group)), ...chosen])].sort();
  return (
    <fieldset class="fieldset">
      <label class="label cursor-pointer justify-start gap-2">
        <input
          type="checkbox"
          name="model_limits_enabled"
          class="checkbox checkbox-sm"
          checked={props.token?.model_limits_enabled ?? false}
        />
        <span safe>{t("启用模型限制（非必要，不建议启用）")}</span>
      </label>
      {models.length === 0 ? (
        <p class="text-base-content/60 text-sm" safe>
          {t("暂无可用模型")}
        </p>
      ) : (
        <div class="border-base-300 grid max-h-40 grid-cols-1 gap-1 overflow-y-auto rounded border p-2 sm:grid-cols-2">
          {models.map((model) => (
            <label class="label cursor-pointer justify-start gap-2 text-sm">
              <input
                type="checkbox"
                name="model_limits"
                value={model}
                data-json-type="csv"
                class="checkbox checkbox-xs"
                checked={chosen.has(model)}
              />
              <span class="truncate" safe>
                {model}
              </span>
            </label>
          ))}
        </div>
      )}
    </fieldset>
  );
}

async function TokenDrawer(props: { context: SignedInPageContext; token: TokenRow | undefined }): Promise<JSX.Element> {
  const { context, token } = props;
  const { t, status } = context;
  const editing = token !== undefined;
  // Rendered by our own component, which escapes what it shows.
  const safeModelLimits = await ModelLimitField({ context, token });
  return (
    <Modal id="token-drawer" t={t} title={editing ? t("更新令牌信息") : t("创建新的令牌")} drawer open>
      <form
        class="flex flex-1 flex-col gap-3 overflow-y-auto"
        data-api-form={editing ? "PUT /api/token/" : "POST /api/token/"}
        data-success={`refresh:#${tokenTableId}`}
        data-inline-errors
        novalidate
      >
        {editing ? <input type="hidden" name="id" value={String(token.id)} data-json-type="number" /> : ""}
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("名称")}
          </span>
          <input name="name" class="input input-bordered w-full" value={token?.name ?? ""} placeholder={t("请输入名称")} maxlength={30} />
        </label>
        <GroupField context={context} token={token} />
        <div class="form-control w-full">
          <label class="label-text mb-1 block text-sm" for="token-expired-time" safe>
            {t("过期时间")}
          </label>
          <DateTimeField
            t={t}
            id="token-expired-time"
            name="expired_time"
            unix={token?.expired_time}
            attributes={{ "data-json-type": "datetime", "data-never": "#token-expiry-never" }}
          />
          <label class="label cursor-pointer justify-start gap-2">
            <input
              type="checkbox"
              id="token-expiry-never"
              class="toggle toggle-sm"
              data-never-for="#token-expired-time"
              checked={(token?.expired_time ?? -1) === -1}
            />
            <span safe>{t("永不过期")}</span>
          </label>
          <PresetButtons
            items={expiryPresets.map(([label, seconds]) => ({
              label: t(label),
              attributes: { "data-set-time": String(seconds), "data-target": "#token-expired-time" },
            }))}
          />
        </div>
        <div class="form-control w-full">
          <QuotaField
            t={t}
            status={status}
            name="remain_quota"
            id="token-remain-quota"
            label={t("额度")}
            value={token?.remain_quota ?? 500000}
            min={0}
            presets={dollarPresets}
          />
          <label class="label mt-1 cursor-pointer justify-start gap-2">
            <input type="checkbox" name="unlimited_quota" class="checkbox checkbox-sm" checked={token?.unlimited_quota ?? false} />
            <span safe>{t("设为无限额度")}</span>
          </label>
        </div>
        {isAdmin(context.user.role) ? <CaptureField t={t} id="token-capture-until" captureUntil={token?.capture_until} /> : ""}
        <TokenLimitFields context={context} token={token} />
        {editing ? (
          ""
        ) : (
          <div class="form-control w-full">
            <label class="label-text mb-1 block text-sm" for="token-count" safe>
              {t("新建数量")}
            </label>
            <input
              id="token-count"
              name="count"
              type="number"
              min="1"
              max="100"
              class="input input-bordered w-full"
              data-json-type="number"
              value="1"
            />
            <PresetButtons
              items={countPresets.map((count) => ({
                label: String(count),
                attributes: { "data-set-value": String(count), "data-target": "#token-count" },
              }))}
            />
          </div>
        )}
        {safeModelLimits}
        <label class="form-control w-full">
          <span class="label-text mb-1 block text-sm" safe>
            {t("IP 白名单")}
          </span>
          <textarea
            name="allow_ips"
            class="textarea textarea-bordered w-full font-mono"
            rows="3"
            placeholder={t("一行一个地址或网段，不填写则不限制")}
            safe
          >
            {token?.allow_ips ?? ""}
          </textarea>
        </label>
        <button type="submit" class="btn btn-primary mt-2" safe>
          {t("提交")}
        </button>
      </form>
    </Modal>
  );
}

/** The drawer for ?drawer=new or ?drawer=<id>, swapped into the page by htmx. */
export async function tokenDrawerFragment(context: SignedInPageContext, which: string): Promise<Response> {
  const token = which === "new" ? undefined : await findToken(context.user.id, Number(which));
  return fragmentResponse(context, await TokenDrawer({ context, token }));
}
