// The invite link and referral earnings (new-api's aff flow):
// copy the link, see invitees and earnings, move pending earnings to the balance.
import { optionNumber } from "../../../../services/options/options.ts";
import { formatQuotaDisplay } from "../../../format.ts";
import type { SignedInPageContext } from "../../../page-context.ts";

export function InviteCard(props: { context: SignedInPageContext }) {
  const { t, user: me, status, url } = props.context;
  const inviteBase = `${status.server_address || url.origin}/register?aff=`;
  const minimum = optionNumber("QuotaPerUnit");
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby="invite-title">
      <div class="card-body">
        <h2 id="invite-title" class="card-title" safe>
          {t("邀请链接")}
        </h2>
        <input
          id="invite-link"
          class="input input-bordered w-full font-mono"
          readonly
          value={me.aff_code ? inviteBase + me.aff_code : ""}
          placeholder={t("点击生成邀请链接")}
          aria-label={t("邀请链接")}
        />
        <button
          type="button"
          class="btn w-fit"
          data-api-call="GET /api/user/aff"
          data-success="copy"
          data-copy-prefix={inviteBase}
          data-fill="#invite-link"
          data-copied-message={t("邀请链接已复制到剪贴板")}
          safe
        >
          {t("复制邀请链接")}
        </button>
        <dl class="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt class="text-base-content/60" safe>
            {t("邀请人数")}
          </dt>
          <dd safe>{String(me.aff_count)}</dd>
          <dt class="text-base-content/60" safe>
            {t("待使用收益")}
          </dt>
          <dd safe>{formatQuotaDisplay(me.aff_quota, status)}</dd>
          <dt class="text-base-content/60" safe>
            {t("总收益")}
          </dt>
          <dd safe>{formatQuotaDisplay(me.aff_history_quota, status)}</dd>
        </dl>
        <form
          method="post"
          class="mt-2 flex flex-wrap items-end gap-2"
          data-api-form="POST /api/user/aff_transfer"
          data-success="reload"
          novalidate
        >
          <label class="form-control">
            <span class="label-text mb-1 block text-sm" safe>
              {t("划转额度")}
            </span>
            <input
              class="input input-bordered w-48"
              type="number"
              min={String(minimum)}
              step="1"
              name="quota"
              data-json-type="number"
              value={String(me.aff_quota)}
            />
          </label>
          <button type="submit" class="btn" disabled={me.aff_quota < minimum} safe>
            {t("划转到余额")}
          </button>
          <span class="text-base-content/60 w-full text-xs" safe>
            {t("最低划转 {{amount}}", { amount: formatQuotaDisplay(minimum, status) })}
          </span>
        </form>
      </div>
    </section>
  );
}
