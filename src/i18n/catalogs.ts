// Every catalog namespace, for both languages. One namespace per area keeps each area's texts
// in its own pair of files; add a namespace here and in both locale folders.
import zhCommon from "./locales/zh/common.json" with { type: "json" };
import enCommon from "./locales/en/common.json" with { type: "json" };
import zhAccounts from "./locales/zh/accounts.json" with { type: "json" };
import enAccounts from "./locales/en/accounts.json" with { type: "json" };
import zhSettings from "./locales/zh/settings.json" with { type: "json" };
import enSettings from "./locales/en/settings.json" with { type: "json" };
import zhMoney from "./locales/zh/money.json" with { type: "json" };
import enMoney from "./locales/en/money.json" with { type: "json" };
import zhOperations from "./locales/zh/operations.json" with { type: "json" };
import enOperations from "./locales/en/operations.json" with { type: "json" };

export type Catalog = Record<string, string>;

export const catalogs = {
  zh: { common: zhCommon, accounts: zhAccounts, settings: zhSettings, money: zhMoney, operations: zhOperations },
  en: { common: enCommon, accounts: enAccounts, settings: enSettings, money: enMoney, operations: enOperations },
} satisfies Record<"zh" | "en", Record<string, Catalog>>;

export type Namespace = keyof (typeof catalogs)["zh"];
export const namespaces = Object.keys(catalogs.zh) as Namespace[];
