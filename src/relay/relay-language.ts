// The language of the relay's own words (errors): the console's `lang` cookie when the call comes
// from the console (the playground), else the client's Accept-Language (the most preferred of the console's
// languages), else the operator's choice (the RelayErrorLanguage option, Chinese by
// default: scripts written for new-api match its Chinese messages). Worked out only when an error
// is written, so a served call pays nothing for it.
import { translator, type Translate } from "../i18n/i18n.ts";
import { languageCookie, languageFromAcceptLanguage, type Language } from "../i18n/languages.ts";
import { optionText } from "../services/options/options.ts";

function relayLanguage(request: Request): Language {
  return (
    languageCookie(request.headers.get("cookie")) ??
    languageFromAcceptLanguage(request.headers.get("accept-language")) ??
    (optionText("RelayErrorLanguage") === "en" ? "en" : "zh")
  );
}

export function relayTranslator(request: Request): Translate {
  return translator(relayLanguage(request));
}
