// Translation for the price islands (price sync, unpriced models, the price editor's tiers): the
// common, operations (the ratio names) and pricing catalogs, one translator per language.
import { common, operations, pricing } from "../../src/i18n/namespaces.ts";
import type { Language } from "../../src/i18n/languages.ts";
import { createIslandTranslator } from "../island-i18n.ts";
import type { PriceTranslate } from "./price-summary.ts";

const translators = new Map<Language, PriceTranslate>();

export function pricingTranslator(language: Language): PriceTranslate {
  let translate = translators.get(language);
  if (!translate) {
    translate = createIslandTranslator(language, [common, operations, pricing]);
    translators.set(language, translate);
  }
  return translate;
}
