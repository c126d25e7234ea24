// Translation for the money islands (wallet, dashboard, pricing editor): the common, settings,
// money and operations catalogs, one translator per language.
import { common, money, operations, settings } from "../../src/i18n/namespaces.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { createIslandTranslator } from "../island-i18n.ts";

export type MoneyTranslate = (key: string, params?: Record<string, unknown>) => string;

const translators = new Map<Language, MoneyTranslate>();

export function moneyTranslator(language: Language): MoneyTranslate {
  let translate = translators.get(language);
  if (!translate) {
    translate = createIslandTranslator(language, [common, settings, money, operations]);
    translators.set(language, translate);
  }
  return translate;
}
