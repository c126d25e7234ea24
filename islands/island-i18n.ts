// Translation inside islands: the same catalogs as the server pages, so a text has one entry
// for all. An island names the namespaces it needs (src/i18n/namespaces.ts) and gets a `t` for
// the page's language, with the server's fallbacks (a text a catalog lacks reads in English).
import i18next from "i18next";
import { sharedOptions } from "../src/i18n/i18n-options.ts";
import { languages, type Language } from "../src/i18n/languages.ts";

export type IslandTranslate = (key: string, params?: Record<string, unknown>) => string;

type IslandCatalog = Record<string, string>;

export function createIslandTranslator(
  language: Language,
  catalogs: ({ zh: IslandCatalog; en: IslandCatalog } & Partial<Record<Language, IslandCatalog>>)[],
): IslandTranslate {
  const instance = i18next.createInstance();
  void instance.init({
    ...sharedOptions,
    lng: language,
    resources: Object.fromEntries(
      languages.map((code) => [code, { translation: Object.assign({}, ...catalogs.map((catalog) => catalog[code] ?? {})) }]),
    ),
  });
  return (key, params) => instance.t(key, params ?? {}) as string;
}
