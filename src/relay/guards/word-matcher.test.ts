import { describe, expect, test } from "bun:test";
import { wordMatcher } from "./word-matcher.ts";

describe("word matcher", () => {
  test("finds every listed word once, overlapping and nested ones included", () => {
    const matcher = wordMatcher(["he", "she", "his", "hers", "敏感词", "x"]);
    expect(matcher.find(["ushers"]).sort()).toEqual(["he", "hers", "she"]);
    expect(matcher.find(["这是敏感词吗", "ahis"]).sort()).toEqual(["his", "敏感词"]);
    expect(matcher.find(["nothing to see", ""])).toEqual([]);
    expect(matcher.find(["xxxx", "xx"])).toEqual(["x"]);
  });

  test("agrees with searching each word in turn", () => {
    const words = ["ab", "abc", "bca", "caab", "a", "cc"];
    const matcher = wordMatcher(words);
    let seed = 3;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let round = 0; round < 300; round++) {
      const text = Array.from({ length: Math.floor(random() * 12) }, () => "abc"[Math.floor(random() * 3)]).join("");
      expect(matcher.find([text]).sort()).toEqual(words.filter((word) => text.includes(word)).sort());
    }
  });

  test("a long text against a long list is one pass (the test would time out otherwise)", () => {
    const words = Array.from({ length: 5000 }, (_, i) => `word${i}z`);
    const matcher = wordMatcher(words);
    const text = "word".repeat(2_500_000) + "word4999z";
    expect(matcher.find([text], (t) => t.toLowerCase())).toEqual(["word4999z"]);
  });
});
