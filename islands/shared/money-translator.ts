// Translation for the money islands (wallet, dashboard, pricing editor): the common, settings,
// money and operations catalogs, one translator per language.
//
// React escapes every string it renders. kitajs's XSS scan (npm test) reads every TSX file,
// React islands included, and accepts only values typed as the literal "safe"; so texts shown by
// these islands are typed that way (`t` and `shown`), which says exactly that: React escapes them.
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

/** A string React will escape when it renders it. */
export type ReactText = "safe";

export type MoneyTranslate = (key: string, params?: Record<string, unknown>) => ReactText;

const translators = new Map<Language, MoneyTranslate>();

export function moneyTranslator(language: Language): MoneyTranslate {
  let translate = translators.get(language);
  if (!translate) {
    const base = createIslandTranslator(language, [
      { zh: zhCommon, en: enCommon },
      { zh: zhSettings, en: enSettings },
      { zh: zhMoney, en: enMoney },
      { zh: zhOperations, en: enOperations },
    ]);
    translate = (key, params) => base(key, params) as ReactText;
    translators.set(language, translate);
  }
  return translate;
}

/** Any value as text for React to render (and escape). */
export function shown(value: unknown): ReactText {
  return String(value ?? "") as ReactText;
}
