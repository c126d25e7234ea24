// "/setting?tab=prices" (super admin): the price tools. The models channels serve without a price,
// priced in one place; what such a model does until it is priced (refused, billed at a default
// ratio, or free); refreshing prices from a price document at a URL, previewed before it is
// applied. The price table itself is edited on the model tab.
import { priceSyncIsland } from "../../../../islands/price-sync/price-sync.tsx";
import { unpricedModelsIsland } from "../../../../islands/unpriced-models/unpriced-models.tsx";
import { optionText } from "../../../services/options/options.ts";
import { unpricedModels } from "../../../services/pricing/unpriced-models.ts";
import { Island } from "../../island.tsx";
import type { PageContext } from "../../page-context.ts";
import { FieldGrid, OptionInput, OptionSection, OptionSelect } from "./option-fields.tsx";

function Card(props: { id: string; title: string; hint?: string; children: JSX.Element }) {
  return (
    <section class="card bg-base-100 shadow-sm" aria-labelledby={props.id}>
      <div class="card-body gap-3">
        <h2 id={props.id} class="card-title text-lg" safe>
          {props.title}
        </h2>
        {props.hint ? (
          <p class="text-base-content/70 text-sm" safe>
            {props.hint}
          </p>
        ) : (
          ""
        )}
        {props.children as "safe"}
      </div>
    </section>
  );
}

function PolicySection(props: { context: PageContext }) {
  const { context } = props;
  const { t } = context;
  return (
    <OptionSection context={context} id="prices-unpriced-policy" title={t("未定价模型的处理方式")}>
      <FieldGrid>
        <OptionSelect
          context={context}
          name="UnpricedModelPolicy"
          label={t("调用未定价的模型时")}
          hint={t("拒绝时，客户端收到 503 model_price_not_configured，说明需要管理员定价")}
          choices={[
            { value: "refuse", label: t("拒绝调用（推荐）") },
            { value: "ratio", label: t("按默认倍率计费") },
            { value: "free", label: t("免费（自用网关）") },
          ]}
        />
        <OptionInput
          context={context}
          name="UnpricedModelRatio"
          label={t("默认倍率")}
          hint={t("按默认倍率计费时使用；new-api 的默认值为 30（每百万输入 tokens 60 美元）")}
          type="number"
        />
      </FieldGrid>
    </OptionSection>
  );
}

export async function pricesTab(context: PageContext): Promise<JSX.Element> {
  const { t, language } = context;
  const models = await unpricedModels();
  return (
    <div class="flex flex-col gap-4">
      <Card
        id="prices-unpriced"
        title={t("未定价模型（{{count}}）", { count: models.length })}
        hint={t("渠道提供、但既没有模型倍率也没有固定价格的模型。")}
      >
        <Island of={unpricedModelsIsland} props={{ language, models }} />
      </Card>
      <PolicySection context={context} />
      <Card
        id="prices-sync"
        title={t("从地址同步价格")}
        hint={t("读取 Switchyard 价格表，或 new-api 的倍率同步格式（/api/ratio_config、/api/pricing），先预览变化，再应用。")}
      >
        <Island of={priceSyncIsland} props={{ language, lastUrl: optionText("PriceSyncUrl") }} />
      </Card>
    </div>
  );
}
