// The catalogs are complete: Chinese and English have the same keys, the Chinese values are the
// keys themselves, and every Chinese text in the code is a key (so it can be translated).
// Traditional Chinese and Japanese have the same namespaces, hold only keys that exist, and
// whatever they lack reads in English.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { catalogs } from "../../src/i18n/catalogs.ts";
import { readdirSync } from "node:fs";
import { i18n, translator } from "../../src/i18n/i18n.ts";
import { languageFromAcceptLanguage, languages, matchLanguageTag } from "../../src/i18n/languages.ts";
import { cjkLiterals } from "../helpers/cjk-literals.ts";

const root = join(import.meta.dir, "..", "..");

describe("i18n catalogs", () => {
  test("zh and en have the same keys in every namespace", () => {
    for (const [namespace, entries] of Object.entries(catalogs.zh)) {
      const english = catalogs.en[namespace as keyof typeof catalogs.en];
      // English alone may hold a "_nav" variant of a key (i18next context): one Chinese word
      // whose English differs by place, "Channels" in navigation but "Channel" as a column.
      const variants = Object.keys(english).filter((key) => key.endsWith("_nav"));
      for (const variant of variants) expect(Object.keys(entries)).toContain(variant.slice(0, -"_nav".length));
      expect(
        Object.keys(english)
          .filter((key) => !variants.includes(key))
          .sort(),
      ).toEqual(Object.keys(entries).sort());
    }
  });

  test("navigation says Channels and Tokens; columns say Channel and Token", () => {
    expect(translator("en")("渠道", { context: "nav" })).toBe("Channels");
    expect(translator("en")("令牌")).toBe("Token");
    expect(translator("zh")("渠道", { context: "nav" })).toBe("渠道");
  });

  test("Chinese values are the keys (the specification's exact wording)", () => {
    for (const entries of Object.values(catalogs.zh)) {
      for (const [key, value] of Object.entries(entries as Record<string, string>)) expect(value).toBe(key);
    }
  });

  test("no key appears in two namespaces", () => {
    const seen = new Map<string, string>();
    const duplicates: string[] = [];
    for (const [namespace, entries] of Object.entries(catalogs.zh)) {
      for (const key of Object.keys(entries)) {
        if (seen.has(key)) duplicates.push(`${key} (${seen.get(key)}, ${namespace})`);
        seen.set(key, namespace);
      }
    }
    expect(duplicates).toEqual([]);
  });

  test("every Chinese literal in src/, console-runtime/ and islands/ is a catalog key", () => {
    const keys = new Set(Object.values(catalogs.zh).flatMap((entries) => Object.keys(entries)));
    const missing = cjkLiterals(root, ["src", "console-runtime", "islands"])
      .filter((literal) => !keys.has(literal.text))
      .map((literal) => `${literal.file}:${literal.line} ${literal.text}`);
    expect(missing).toEqual([]);
  });

  test("translation falls back to the Chinese key and interpolates", () => {
    expect(translator("en")("请求过于频繁，请 {{seconds}} 秒后再试", { seconds: 3 })).toBe(
      "Too many requests, please try again in 3 seconds",
    );
    expect(translator("zh")("请求过于频繁，请 {{seconds}} 秒后再试", { seconds: 3 })).toBe("请求过于频繁，请 3 秒后再试");
    expect(translator("en")("没有这个键")).toBe("没有这个键");
  });

  test("every language has the same namespace files, and the partial ones hold only known keys", () => {
    const localesFolder = join(root, "src", "i18n", "locales");
    const files = (language: string) => readdirSync(join(localesFolder, language)).sort();
    for (const language of languages) expect(files(language)).toEqual(files("zh"));
    for (const language of ["zh-TW", "ja"] as const) {
      for (const [namespace, entries] of Object.entries(catalogs[language])) {
        const known = Object.keys(catalogs.zh[namespace as keyof typeof catalogs.zh]);
        const stale = Object.keys(entries).filter((key) => !known.includes(key.replace(/_nav$/, "")));
        expect({ language, namespace, stale }).toEqual({ language, namespace, stale: [] });
        for (const value of Object.values(entries)) expect(typeof value).toBe("string");
      }
    }
  });

  test("Traditional Chinese and Japanese read a translated text, and English where there is none (or an empty placeholder)", () => {
    expect(translator("ja")("登录")).toBe(translator("en")("登录"));
    expect(translator("zh-TW")("请求过于频繁，请 {{seconds}} 秒后再试", { seconds: 3 })).toBe(
      "Too many requests, please try again in 3 seconds",
    );
    // The store holds the catalogs themselves: keep copies to put back.
    const saved = { ja: { ...catalogs.ja.common }, "zh-TW": { ...catalogs["zh-TW"].common } };
    i18n.addResource("ja", "common", "登录", "ログイン");
    i18n.addResource("zh-TW", "common", "登录", "");
    try {
      expect(translator("ja")("登录")).toBe("ログイン");
      expect(translator("zh-TW")("登录")).toBe("Log in");
      // Simplified Chinese is not a fallback of Traditional: a missing text reads in English.
      expect(translator("zh-TW")("没有这个键")).toBe("没有这个键");
    } finally {
      for (const language of ["ja", "zh-TW"] as const) {
        i18n.removeResourceBundle(language, "common");
        i18n.addResourceBundle(language, "common", saved[language]);
      }
    }
    expect(translator("ja")("登录")).toBe("Log in");
  });

  test("browser language tags map to the console's languages", () => {
    expect(matchLanguageTag("zh-CN")).toBe("zh");
    expect(matchLanguageTag("zh-Hans-SG")).toBe("zh");
    expect(matchLanguageTag("zh-HK")).toBe("zh-TW");
    expect(matchLanguageTag("zh-Hant")).toBe("zh-TW");
    expect(matchLanguageTag("ja-JP")).toBe("ja");
    expect(matchLanguageTag("fr-FR")).toBeUndefined();
    expect(languageFromAcceptLanguage("fr-FR,ja;q=0.9,en;q=0.8")).toBe("ja");
    expect(languageFromAcceptLanguage("en-US,en;q=0.9,zh-TW;q=0.95")).toBe("en");
    expect(languageFromAcceptLanguage("de,zh-TW;q=0.5,zh;q=0.4")).toBe("zh-TW");
    expect(languageFromAcceptLanguage("*")).toBeUndefined();
    expect(languageFromAcceptLanguage("ja;q=0")).toBeUndefined();
  });
});
