// Every catalog namespace, for both languages. One namespace per area keeps each area's texts
// in its own pair of files; add a namespace here and in both locale folders.
import zhCommon from "./locales/zh/common.json" with { type: "json" };
import enCommon from "./locales/en/common.json" with { type: "json" };
import zhAccounts from "./locales/zh/accounts.json" with { type: "json" };
import enAccounts from "./locales/en/accounts.json" with { type: "json" };
import zhSettings from "./locales/zh/settings.json" with { type: "json" };
import enSettings from "./locales/en/settings.json" with { type: "json" };
import zhChannels from "./locales/zh/channels.json" with { type: "json" };
import enChannels from "./locales/en/channels.json" with { type: "json" };
import zhTokens from "./locales/zh/tokens.json" with { type: "json" };
import enTokens from "./locales/en/tokens.json" with { type: "json" };
import zhLogs from "./locales/zh/logs.json" with { type: "json" };
import enLogs from "./locales/en/logs.json" with { type: "json" };
import zhModels from "./locales/zh/models.json" with { type: "json" };
import enModels from "./locales/en/models.json" with { type: "json" };
import zhMoney from "./locales/zh/money.json" with { type: "json" };
import enMoney from "./locales/en/money.json" with { type: "json" };
import zhOperations from "./locales/zh/operations.json" with { type: "json" };
import enOperations from "./locales/en/operations.json" with { type: "json" };
import zhRelay from "./locales/zh/relay.json" with { type: "json" };
import enRelay from "./locales/en/relay.json" with { type: "json" };
import zhUsers from "./locales/zh/users.json" with { type: "json" };
import enUsers from "./locales/en/users.json" with { type: "json" };
import zhInbound from "./locales/zh/inbound.json" with { type: "json" };
import enInbound from "./locales/en/inbound.json" with { type: "json" };
import zhTasks from "./locales/zh/tasks.json" with { type: "json" };
import enTasks from "./locales/en/tasks.json" with { type: "json" };
import zhPlayground from "./locales/zh/playground.json" with { type: "json" };
import enPlayground from "./locales/en/playground.json" with { type: "json" };
import zhOnboarding from "./locales/zh/onboarding.json" with { type: "json" };
import enOnboarding from "./locales/en/onboarding.json" with { type: "json" };

export type Catalog = Record<string, string>;

export const catalogs = {
  zh: { common: zhCommon, accounts: zhAccounts, settings: zhSettings, channels: zhChannels, tokens: zhTokens, logs: zhLogs, money: zhMoney, relay: zhRelay, users: zhUsers, models: zhModels, operations: zhOperations, tasks: zhTasks, playground: zhPlayground, onboarding: zhOnboarding, inbound: zhInbound },
  en: { common: enCommon, accounts: enAccounts, settings: enSettings, channels: enChannels, tokens: enTokens, logs: enLogs, money: enMoney, relay: enRelay, users: enUsers, models: enModels, operations: enOperations, tasks: enTasks, playground: enPlayground, onboarding: enOnboarding, inbound: enInbound },
} satisfies Record<"zh" | "en", Record<string, Catalog>>;

export type Namespace = keyof (typeof catalogs)["zh"];
export const namespaces = Object.keys(catalogs.zh) as Namespace[];
