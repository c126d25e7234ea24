// Translation inside islands: the same catalogs as the server pages, so a text has one entry
// for both. An island names the namespaces it needs and gets a `t` for the page's language.
import i18next from "i18next";
import type { Language } from "../src/i18n/languages.ts";

export type IslandTranslate = (key: string, params?: Record<string, unknown>) => string;

export function createIslandTranslator(
  language: Language,
  catalogs: { zh: Record<string, string>; en: Record<string, string> }[],
): IslandTranslate {
  const instance = i18next.createInstance();
  void instance.init({
    initAsync: false,
    lng: language,
    fallbackLng: false,
    resources: {
      zh: { translation: Object.assign({}, ...catalogs.map((catalog) => catalog.zh)) },
      en: { translation: Object.assign({}, ...catalogs.map((catalog) => catalog.en)) },
    },
    keySeparator: false,
    nsSeparator: false,
    interpolation: { escapeValue: false },
  });
  return (key, params) => instance.t(key, params ?? {}) as string;
}
