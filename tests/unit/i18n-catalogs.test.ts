// The catalogs are complete: both languages have the same keys, the Chinese values are the
// keys themselves, and every Chinese text in the code is a key (so it can be translated).
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { catalogs } from "../../src/i18n/catalogs.ts";
import { translator } from "../../src/i18n/i18n.ts";
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
      expect(Object.keys(english).filter((key) => !variants.includes(key)).sort()).toEqual(Object.keys(entries).sort());
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

  test("every Chinese literal in src/ and islands/ is a catalog key", () => {
    const keys = new Set(Object.values(catalogs.zh).flatMap((entries) => Object.keys(entries)));
    const missing = cjkLiterals(root, ["src", "islands"])
      .filter((literal) => !keys.has(literal.text))
      .map((literal) => `${literal.file}:${literal.line} ${literal.text}`);
    expect(missing).toEqual([]);
  });

  test("translation falls back to the Chinese key and interpolates", () => {
    expect(translator("en")("请求过于频繁，请 {{seconds}} 秒后再试", { seconds: 3 })).toBe("Too many requests, please try again in 3 seconds");
    expect(translator("zh")("请求过于频繁，请 {{seconds}} 秒后再试", { seconds: 3 })).toBe("请求过于频繁，请 3 秒后再试");
    expect(translator("en")("没有这个键")).toBe("没有这个键");
  });
});
