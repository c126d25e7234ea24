// The language of a request: the `lang` cookie the console sets, else Chinese.
import { translator, type Translate } from "../i18n/i18n.ts";
import { languageFromCookieHeader, type Language } from "../i18n/languages.ts";

export function requestLanguage(request: Request): Language {
  return languageFromCookieHeader(request.headers.get("cookie"));
}

export function requestTranslator(request: Request): Translate {
  return translator(requestLanguage(request));
}
