// The interface languages. Simplified Chinese is the default; keys of every catalog are the
// Chinese texts themselves (the specification's exact wording). English is complete; Traditional
// Chinese and Japanese are catalogs a translator fills, and whatever they lack reads in English
// (i18n.ts). A visitor's language: the `lang` cookie once they chose one, else the browser's
// Accept-Language, else Chinese.
export const languages = ["zh", "zh-TW", "en", "ja"] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = "zh";

/** Each language in its own words, for the language menu. */
export const languageNames: Record<Language, string> = {
  zh: "简体中文", // i18n-exempt: a language's own name
  "zh-TW": "繁體中文", // i18n-exempt: a language's own name
  en: "English",
  ja: "日本語", // i18n-exempt: a language's own name
};

/** The BCP 47 tag for <html lang> (fonts and screen readers pick their forms by it). */
export const htmlLanguageTags: Record<Language, string> = { zh: "zh-CN", "zh-TW": "zh-TW", en: "en", ja: "ja" };

/**
 * One of ours for a BCP 47 tag, undefined when none fits. Chinese written in traditional
 * characters (Taiwan, Hong Kong, Macau, or the Hant script) is zh-TW; other Chinese is zh.
 */
export function matchLanguageTag(tag: string): Language | undefined {
  const lowered = tag.trim().toLowerCase().replaceAll("_", "-");
  const [primary, ...rest] = lowered.split("-");
  if (primary === "zh") return rest.some((part) => ["tw", "hk", "mo", "hant"].includes(part)) ? "zh-TW" : "zh";
  if (primary === "en") return "en";
  if (primary === "ja") return "ja";
  return undefined;
}

/** The `lang` cookie of a Cookie header, undefined when there is none. */
export function languageCookie(cookieHeader: string | null | undefined): Language | undefined {
  if (!cookieHeader) return undefined;
  const match = /(?:^|;\s*)lang=([^;]*)/.exec(cookieHeader);
  if (!match) return undefined;
  return matchLanguageTag(decodeURIComponent(match[1]!));
}

/** The best of ours by an Accept-Language header's q-values (the first listed on a tie); undefined when it names none. */
export function languageFromAcceptLanguage(header: string | null | undefined): Language | undefined {
  if (!header) return undefined;
  let best: { language: Language; quality: number } | undefined;
  for (const part of header.split(",")) {
    const [tag = "", ...parameters] = part.trim().split(";");
    const language = matchLanguageTag(tag);
    if (!language) continue;
    const q = parameters.map((parameter) => /^\s*q=([0-9.]+)\s*$/i.exec(parameter)?.[1]).find(Boolean);
    const quality = q === undefined ? 1 : Number(q);
    if (!Number.isFinite(quality) || quality <= 0) continue;
    if (!best || quality > best.quality) best = { language, quality };
  }
  return best?.language;
}
