// The create and edit dialogs of /redemption. Both post to /api/redemption/, which applies the
// rules (name 1-20 characters or the formatted quota, quota default 100000, count 1-100).
import type { RedemptionView } from "../../../services/redemptions/redemption-admin.ts";
import type { PageContext } from "../../page-context.ts";
import { QuotaField } from "../../components/quota-field.tsx";

function NumberField(props: { name: string; label: string; value: string; min?: number; max?: number }) {
  return (
    <label class="form-control w-full">
      <span class="label-text mb-1 block text-sm" safe>
        {props.label}
      </span>
      <input
        class="input input-bordered w-full"
        type="number"
        name={props.name}
        value={props.value}
        min={props.min}
        max={props.max}
        step="1"
        data-json-type="number"
      />
    </label>
  );
}

function NameField(props: { context: PageContext; value?: string }) {
  const { t } = props.context;
  return (
    <label class="form-control w-full">
      <span class="label-text mb-1 block text-sm" safe>
        {t("名称")}
      </span>
      <input
        class="input input-bordered w-full"
        name="name"
        value={props.value ?? ""}
        maxlength={20}
        placeholder={t("留空则使用额度作为名称")}
      />
    </label>
  );
}

/** Cancel closes the dialog without scripts (method="dialog"); submit posts the named form. */
function DialogActions(props: { context: PageContext; form: string }) {
  const { t } = props.context;
  return (
    <div class="modal-action">
      <form method="dialog">
        <button type="submit" class="btn" safe>
          {t("取消")}
        </button>
      </form>
      <button type="submit" form={props.form} class="btn btn-primary" safe>
        {t("提交")}
      </button>
    </div>
  );
}

export function CreateRedemptionDialog(props: { context: PageContext; tableId: string }) {
  const { t } = props.context;
  return (
    <dialog id="create-redemption" class="modal" aria-labelledby="create-redemption-title">
      <div class="modal-box">
        <h3 id="create-redemption-title" class="text-lg font-bold" safe>
          {t("添加兑换码")}
        </h3>
        <form
          id="create-redemption-form"
          class="mt-4 flex flex-col gap-3"
          data-api-form="POST /api/redemption/"
          data-success={`copy;refresh:#${props.tableId}`}
          data-fill="#created-codes"
          data-copied-message={t("兑换码创建成功，已复制到剪贴板")}
        >
          <NameField context={props.context} />
          <QuotaField
            t={t}
            status={props.context.status}
            name="quota"
            id="create-redemption-quota"
            label={t("额度")}
            value={100000}
            min={1}
          />
          <NumberField name="count" label={t("生成数量")} value="1" min={1} max={100} />
        </form>
        <DialogActions context={props.context} form="create-redemption-form" />
      </div>
    </dialog>
  );
}

export function EditRedemptionDialog(props: { context: PageContext; row: RedemptionView; tableId: string }) {
  const { t } = props.context;
  const { row } = props;
  return (
    <dialog id="edit-redemption" class="modal" data-open aria-labelledby="edit-redemption-title">
      <div class="modal-box">
        <h3 id="edit-redemption-title" class="text-lg font-bold" safe>
          {t("编辑兑换码")}
        </h3>
        <form
          id="edit-redemption-form"
          class="mt-4 flex flex-col gap-3"
          data-api-form="PUT /api/redemption/"
          data-success={`refresh:#${props.tableId}`}
        >
          <input type="hidden" name="id" value={String(row.id)} data-json-type="number" />
          <NameField context={props.context} value={row.name} />
          <QuotaField
            t={t}
            status={props.context.status}
            name="quota"
            id="edit-redemption-quota"
            label={t("额度")}
            value={row.quota}
            min={1}
          />
        </form>
        <DialogActions context={props.context} form="edit-redemption-form" />
      </div>
    </dialog>
  );
}
