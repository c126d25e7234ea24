// "/setting?tab=model" (super admin): prices. The JSON editors hold every pricing option as text
// (validated here and again by the option rules); the visual editor edits model prices and
// ratios row by row; the model ratios can be reset to the built-in table
// (请输入数字, 模型名称已存在, a fixed price disables the ratios, 10 rows a page).
import { optionJson } from "../../../services/options/options.ts";
import { defaultModelRatios, defaultPriceTiers } from "../../../services/pricing/default-ratios.ts";
import type { TierOption } from "../../../services/pricing/price-list.ts";
import { pricingEditorIsland } from "../../../../islands/pricing-editor/pricing-editor.tsx";
import { Island } from "../../island.tsx";
import type { PageContext } from "../../page-context.ts";
import { OptionSection, OptionTextarea } from "./option-fields.tsx";

function RatioEditors(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="model-ratios" title={t("模型倍率设置")} submit={t("保存模型倍率设置")}>
      <div class="grid gap-3 xl:grid-cols-2">
        <OptionTextarea
          context={context}
          name="ModelPrice"
          label={t("模型固定价格")}
          hint={t("一次调用消耗多少美元，优先于模型倍率")}
          json
          rows={10}
        />
        <OptionTextarea
          context={context}
          name="ModelRatio"
          label={t("模型倍率")}
          hint={t("1 倍率 = 每 1M 输入 tokens 2 美元")}
          json
          rows={10}
        />
        <OptionTextarea
          context={context}
          name="CompletionRatio"
          label={t("模型补全倍率")}
          hint={t("输出 token 相对输入 token 的倍率")}
          json
          rows={10}
        />
        <OptionTextarea
          context={context}
          name="CacheRatio"
          label={t("缓存读取倍率")}
          hint={t("从缓存读取的输入 token 相对输入 token 的倍率")}
          json
          rows={6}
        />
        <OptionTextarea
          context={context}
          name="CreateCacheRatio"
          label={t("缓存写入倍率")}
          hint={t("写入缓存的输入 token 相对输入 token 的倍率")}
          json
          rows={6}
        />
        <OptionTextarea
          context={context}
          name="ModelPriceTiers"
          label={t("价格分档")}
          hint={t(
            '按提示长度分档，例如 {"模型": [{"above": 200000, "model_ratio": 1.25, "completion_ratio": 6}]}；内置的长上下文价格无需填写',
          )}
          json
          rows={6}
        />
        <OptionTextarea
          context={context}
          name="GroupRatio"
          label={t("分组倍率")}
          hint={t("为一个 JSON 文本，键为组名称，值为倍率")}
          json
          rows={10}
        />
        <OptionTextarea
          context={context}
          name="UserUsableGroups"
          label={t("用户可选分组")}
          hint={t("为一个 JSON 文本，键为组名称，值为分组描述")}
          json
          rows={6}
        />
      </div>
      <div>
        <button
          type="button"
          class="btn btn-warning btn-outline btn-sm"
          data-api-call="POST /api/option/rest_model_ratio"
          data-confirm={t("确定重置模型倍率吗？自定义的模型倍率将恢复为内置值。")}
          data-success="reload"
          safe
        >
          {t("重置模型倍率")}
        </button>
      </div>
    </OptionSection>
  );
}

function GeminiSection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="model-gemini" title={t("Gemini 设置")}>
      <div class="grid gap-3 xl:grid-cols-2">
        <OptionTextarea
          context={context}
          name="GeminiSafetySettings"
          label={t("Gemini 安全设置")}
          hint={t("default 用于未单独设置的类别")}
          json
          rows={5}
        />
        <OptionTextarea
          context={context}
          name="GeminiVersionSettings"
          label={t("Gemini 版本设置")}
          hint={t("default 用于未单独设置的模型")}
          json
          rows={5}
        />
      </div>
    </OptionSection>
  );
}

/** The built-in long-context tiers in force: those of models that keep their built-in base price. */
function builtinTiersInForce(modelRatio: Record<string, number>): Record<string, TierOption[]> {
  return Object.fromEntries(
    Object.entries(defaultPriceTiers).filter(
      ([name]) => (Object.hasOwn(modelRatio, name) ? modelRatio[name] : defaultModelRatios[name]) === defaultModelRatios[name],
    ),
  );
}

export function modelTab(context: PageContext): JSX.Element {
  const { t, language } = context;
  return (
    <div class="flex flex-col gap-4">
      <section class="card bg-base-100 shadow-sm" aria-labelledby="pricing-editor-title">
        <div class="card-body gap-3">
          <h2 id="pricing-editor-title" class="card-title text-lg" safe>
            {t("可视化倍率设置")}
          </h2>
          <Island
            of={pricingEditorIsland}
            props={{
              language,
              modelPrice: optionJson<Record<string, number>>("ModelPrice"),
              modelRatio: optionJson<Record<string, number>>("ModelRatio"),
              completionRatio: optionJson<Record<string, number>>("CompletionRatio"),
              modelPriceTiers: optionJson<Record<string, TierOption[]>>("ModelPriceTiers"),
              builtinTiers: builtinTiersInForce(optionJson<Record<string, number>>("ModelRatio")),
            }}
          />
        </div>
      </section>
      <RatioEditors context={context} />
      <GeminiSection context={context} />
    </div>
  );
}
