// Translation for the money islands (wallet, dashboard, pricing editor): the common, settings,
// money and operations catalogs, one translator per language.
import enCommon from "../../src/i18n/locales/en/common.json" with { type: "json" };
import enMoney from "../../src/i18n/locales/en/money.json" with { type: "json" };
import enOperations from "../../src/i18n/locales/en/operations.json" with { type: "json" };
import enSettings from "../../src/i18n/locales/en/settings.json" with { type: "json" };
import zhCommon from "../../src/i18n/locales/zh/common.json" with { type: "json" };
import zhMoney from "../../src/i18n/locales/zh/money.json" with { type: "json" };
import zhOperations from "../../src/i18n/locales/zh/operations.json" with { type: "json" };
import zhSettings from "../../src/i18n/locales/zh/settings.json" with { type: "json" };
import type { Language } from "../../src/i18n/languages.ts";
import { createIslandTranslator } from "../island-i18n.ts";

export type MoneyTranslate = (key: string, params?: Record<string, unknown>) => string;

const translators = new Map<Language, MoneyTranslate>();

export function moneyTranslator(language: Language): MoneyTranslate {
  let translate = translators.get(language);
  if (!translate) {
    translate = createIslandTranslator(language, [
      { zh: zhCommon, en: enCommon },
      { zh: zhSettings, en: enSettings },
      { zh: zhMoney, en: enMoney },
      { zh: zhOperations, en: enOperations },
    ]);
    translators.set(language, translate);
  }
  return translate;
}
