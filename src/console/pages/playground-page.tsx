// "/playground": the chat playground island, given what it needs to act without asking: the
// groups the user may pick with their ratios, the models each group can call now, those models'
// prices (for the cost of each answer), the site's money display, and the names of the user's
// usable tokens for "view code" (their keys are not on the page). Replies stream through
// /pg/chat/completions, billed to the user.
import { groupRatioOf, priceOfModel, unpricedPolicy, type ModelPrice } from "../../services/billing/model-prices.ts";
import { enabledModelsOfGroups } from "../../services/channels/group-models.ts";
import { usableGroupsOf } from "../../services/groups/user-groups.ts";
import { optionBool, optionNumber } from "../../services/options/options.ts";
import { queryTokens, toTokenView, TokenStatus } from "../../services/tokens/token-queries.ts";
import { Island } from "../island.tsx";
import type { SignedInPageContext } from "../page-context.ts";
import { renderPage } from "../render-page.tsx";
import { playgroundIsland, type PlaygroundProps } from "../../../islands/playground/playground.tsx";

async function playgroundProps(context: SignedInPageContext): Promise<PlaygroundProps> {
  const { t, user, status, url } = context;
  const usable = usableGroupsOf(user.group);
  const names = Object.keys(usable);
  // The built-in descriptions (the user's own group, UserUsableGroups' defaults) are catalog keys
  // and read in the page's language; an admin's own wording has no entry and stays as written.
  const groups = names.map((name) => ({ name, description: usable[name] ? t(usable[name]) : "", ratio: groupRatioOf(name) }));
  const modelLists = await Promise.all(names.map((name) => enabledModelsOfGroups([name])));
  const modelsByGroup = Object.fromEntries(names.map((name, index) => [name, modelLists[index]!]));
  const models: Record<string, ModelPrice | null> = {};
  for (const model of new Set(modelLists.flat())) models[model] = priceOfModel(model) ?? null;
  const { items } = await queryTokens(user.id, {}, { page: 1, pageSize: 100 });
  const tokens = items
    .map(toTokenView)
    .filter((token) => token.status === TokenStatus.enabled)
    .map((token) => ({ id: token.id, name: token.name }));
  return {
    language: context.language,
    userId: user.id,
    groups,
    defaultGroup: user.group,
    modelsByGroup,
    prices: { models, groupRatios: Object.fromEntries(names.map((name) => [name, groupRatioOf(name)])) },
    unpricedPolicy: unpricedPolicy(),
    money: { quotaPerUnit: optionNumber("QuotaPerUnit"), displayInCurrency: optionBool("DisplayInCurrencyEnabled") },
    tokens,
    baseUrl: (status.server_address || url.origin).replace(/\/+$/, ""),
  };
}

export async function playgroundPage(context: SignedInPageContext): Promise<Response> {
  return renderPage(
    context,
    { title: context.t("操练场"), quietHeading: true },
    <Island of={playgroundIsland} props={await playgroundProps(context)} />,
  );
}
