// "/setting?tab=ratelimit" (super admin): the per-user model request limit
// (period 1 minute by default, 0 requests means unlimited, successes at least 1).
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionToggle } from "./option-fields.tsx";

export function rateLimitTab(context: PageContext): JSX.Element {
  const { t } = context;
  return (
    <OptionSection context={context} id="ratelimit-model" title={t("模型请求速率限制")}>
      <OptionToggle context={context} name="ModelRequestRateLimitEnabled" label={t("启用用户模型请求速率限制（可能会影响高并发性能）")} />
      <FieldGrid>
        <OptionInput
          context={context}
          name="ModelRequestRateLimitDurationMinutes"
          label={t("限制周期（分钟）")}
          hint={t("频率限制的周期")}
          type="number"
        />
        <OptionInput
          context={context}
          name="ModelRequestRateLimitCount"
          label={t("用户每周期最多请求次数")}
          hint={t("包括失败请求的次数，0 代表不限制")}
          type="number"
        />
        <OptionInput
          context={context}
          name="ModelRequestRateLimitSuccessCount"
          label={t("用户每周期最多请求完成次数")}
          hint={t("只包括请求成功的次数，至少为 1")}
          type="number"
        />
        <OptionInput
          context={context}
          name="CountTokensRateLimit"
          label={t("令牌计数每分钟最多请求次数")}
          hint={t("每个用户每分钟对 count_tokens 与 countTokens 的请求次数（免费，但受此限制），0 代表不限制")}
          type="number"
        />
      </FieldGrid>
    </OptionSection>
  );
}
