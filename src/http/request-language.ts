// The language of a console page or /api answer: the `lang` cookie once the visitor chose one in
// the language menu, else what their browser asks for (Accept-Language), else Chinese. Scripts
// that send no Accept-Language keep new-api's Chinese messages.
import { translator, type Translate } from "../i18n/i18n.ts";
import { defaultLanguage, languageCookie, languageFromAcceptLanguage, type Language } from "../i18n/languages.ts";

export function requestLanguage(request: Request): Language {
  return (
    languageCookie(request.headers.get("cookie")) ?? languageFromAcceptLanguage(request.headers.get("accept-language")) ?? defaultLanguage
  );
}

export function requestTranslator(request: Request): Translate {
  return translator(requestLanguage(request));
}
