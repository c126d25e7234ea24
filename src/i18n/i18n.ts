// Server-side translation. One i18next instance, initialised synchronously from the bundled
// catalogs; pages and services ask for a translator bound to the request's language.
import i18next, { type TFunction } from "i18next";
import { catalogs, namespaces } from "./catalogs.ts";
import { defaultLanguage, type Language } from "./languages.ts";

const instance = i18next.createInstance();
void instance.init({
  initAsync: false,
  resources: catalogs,
  lng: defaultLanguage,
  fallbackLng: false,
  ns: namespaces,
  defaultNS: "common",
  fallbackNS: namespaces,
  // Keys are Chinese sentences that may contain ':' or '.', so neither separates anything.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

export type Translate = (key: string, params?: Record<string, unknown>) => string;

const translators = new Map<Language, Translate>();

export function translator(language: Language): Translate {
  let translate = translators.get(language);
  if (!translate) {
    const fixed: TFunction = instance.getFixedT(language);
    translate = (key, params) => fixed(key, params ?? {}) as string;
    translators.set(language, translate);
  }
  return translate;
}
