// How texts are looked up, shared by the server (i18n.ts) and the islands (islands/island-i18n.ts).
import type { InitOptions } from "i18next";

/**
 * The options every i18next instance of ours uses (the server's in i18n.ts, the islands' in
 * islands/island-i18n.ts). A text Traditional Chinese or Japanese lacks, or holds as "" (a
 * translator's placeholder), reads in English, never as machine-made filler; English and
 * Chinese lack nothing (tests/unit/i18n-catalogs.test.ts), and a key without any entry shows
 * as itself, the Chinese text. `load: "currentOnly"` keeps i18next from trying plain "zh"
 * (Simplified) for "zh-TW" before English.
 */
export const sharedOptions = {
  initAsync: false,
  fallbackLng: { "zh-TW": ["en"], ja: ["en"], default: [] },
  load: "currentOnly",
  returnEmptyString: false,
  // Keys are Chinese sentences that may contain ':' or '.', so neither separates anything.
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnNull: false,
} satisfies InitOptions;
