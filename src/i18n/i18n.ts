// Server-side translation. One i18next instance, initialised synchronously from the bundled
// catalogs; pages and services ask for a translator bound to the request's language.
import i18next, { type TFunction } from "i18next";
import { catalogs, namespaces } from "./catalogs.ts";
import { sharedOptions } from "./i18n-options.ts";
import { defaultLanguage, type Language } from "./languages.ts";

/** The server's instance (tests add entries to it to see a filled catalog at work). */
export const i18n = i18next.createInstance();
void i18n.init({
  ...sharedOptions,
  resources: catalogs,
  lng: defaultLanguage,
  ns: namespaces,
  defaultNS: "common",
  fallbackNS: namespaces,
});

export type Translate = (key: string, params?: Record<string, unknown>) => string;

const translators = new Map<Language, Translate>();

export function translator(language: Language): Translate {
  let translate = translators.get(language);
  if (!translate) {
    const fixed: TFunction = i18n.getFixedT(language);
    translate = (key, params) => fixed(key, params ?? {}) as string;
    translators.set(language, translate);
  }
  return translate;
}
