// The two interface languages. Chinese is the default; keys of every catalog are the Chinese
// texts themselves (the specification's exact wording), so a missing English entry degrades
// to the Chinese original rather than to a bare key.
export const languages = ["zh", "en"] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = "zh";
export const languageCookie = "lang";

export function parseLanguage(value: string | null | undefined): Language {
  if (!value) return defaultLanguage;
  const lowered = value.toLowerCase();
  return lowered.startsWith("en") ? "en" : "zh";
}

/** Reads the language from the `lang` cookie of a Cookie header. */
export function languageFromCookieHeader(cookieHeader: string | null | undefined): Language {
  if (!cookieHeader) return defaultLanguage;
  const match = /(?:^|;\s*)lang=([^;]+)/.exec(cookieHeader);
  return parseLanguage(match?.[1]);
}
