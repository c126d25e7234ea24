// What an admin or root sees on every console page while the site requires two-factor of them
// (AdminTwoFactorRequired) and theirs is off: the two-factor setup, and nothing else until it
// is on (issue 28). The /api face refuses their calls with the same message meanwhile.
import { twoFactorStatus } from "../../../services/two-factor/totp-accounts.ts";
import type { SignedInPageContext } from "../../page-context.ts";
import { renderPage } from "../../render-page.tsx";
import { TwoFactorCard } from "../settings/security/two-factor-card.tsx";

export async function renderTwoFactorGatePage(context: SignedInPageContext): Promise<Response> {
  const { t } = context;
  const status = await twoFactorStatus(context.user);
  return renderPage(
    context,
    { title: t("启用两步验证") },
    <section class="flex min-h-[70vh] items-center justify-center" data-two-factor-gate>
      <div class="flex w-full max-w-lg flex-col gap-3">
        <TwoFactorCard context={context} status={status} />
        <button type="button" class="link w-fit text-sm" data-action="logout" safe>
          {t("退出登录")}
        </button>
      </div>
    </section>,
  );
}
