// The compact token counter (tokenizer-ranks.ts, byte-pair-count.ts) must count exactly what
// gpt-tokenizer counts: on the library's own published test plans, and on generated text in many
// scripts. gpt-tokenizer stays the reference these tests hold the counter to.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { loadTokenCounter } from "../../src/services/billing/byte-pair-count.ts";
import { parseTiktoken, rankOf, readRankTable, type RankedEncoding } from "../../src/services/billing/tokenizer-ranks.ts";

type Reference = { countTokens(text: string): number; encode(text: string): number[] };
const reference = (name: RankedEncoding) => require(`gpt-tokenizer/encoding/${name}`) as Reference;

/** The library's test plans for an encoding: sample text and its token ids. */
function testPlans(name: RankedEncoding): { sample: string; encoded: number[] }[] {
  const text = readFileSync(require.resolve("gpt-tokenizer/data/TestPlans.txt"), "utf8");
  const plans: { sample: string; encoded: number[] }[] = [];
  for (const block of text.split(/\n\n(?=EncodingName: )/)) {
    const match = /^EncodingName: (\S+)\nSample: ([\s\S]*)\nEncoded: (\[.*\])\s*$/.exec(block);
    if (match && match[1] === name) plans.push({ sample: match[2]!, encoded: JSON.parse(match[3]!) });
  }
  return plans;
}

/** A deterministic generator of mixed-script text with the spacing, punctuation and numbers real text has. */
function generatedTexts(count: number): string[] {
  let seed = 20261126;
  const next = (limit: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % limit;
  };
  const alphabets = [
    "abcdefghijklmnopqrstuvwxyz",
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "0123456789",
    " ",
    "  \t\n\r\n",
    ".,;:!?'\"()[]{}<>/\\|-_=+*&^%$#@~`",
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经",
    "ぁあぃいぅうぇえぉおかがきぎくぐけげこごさざしじすずせぜそぞただちぢっつづてでとどなにぬねのアイウエオカキクケコ",
    "абвгдеёжзийклмнопрстуфхцчшщъыьэюяАБВГД",
    "ابتثجحخدذرزسشصضطظعغفقكلمنهوي",
    "àáâãäåæçèéêëìíîïñòóôõöøùúûüýÿ",
    "\u0301\u0308\u0327",
    "😀😃🌍🚀👍🏽❤️‍🔥🇨🇳",
    "\ud800\udfff", // a surrogate pair split apart below makes lone surrogates too
  ];
  const texts: string[] = [];
  for (let index = 0; index < count; index++) {
    let text = "";
    const length = 1 + next(120);
    while (text.length < length) {
      const alphabet = alphabets[next(alphabets.length)]!;
      const run = 1 + next(8);
      for (let character = 0; character < run; character++) {
        const characters = [...alphabet];
        text += characters[next(characters.length)];
      }
    }
    texts.push(text);
  }
  return texts;
}

describe("compact byte-pair counts", () => {
  for (const name of ["o200k_base", "cl100k_base"] as const) {
    const ours = loadTokenCounter(name);
    const theirs = reference(name);

    test(`${name}: every sample of gpt-tokenizer's test plans`, () => {
      const plans = testPlans(name);
      expect(plans.length).toBeGreaterThan(50);
      for (const plan of plans)
        expect({ sample: plan.sample, tokens: ours.countTokens(plan.sample) }).toEqual({
          sample: plan.sample,
          tokens: plan.encoded.length,
        });
    });

    test(`${name}: 3,000 generated texts in many scripts count as the library counts them`, () => {
      const differing = generatedTexts(3000)
        .map((text) => ({ text, ours: ours.countTokens(text), theirs: theirs.countTokens(text) }))
        .filter((row) => row.ours !== row.theirs);
      expect(differing).toEqual([]);
    });

    test(`${name}: long prose, code and whitespace runs`, () => {
      const texts = [
        "The gateway counts every prompt before it holds quota. ".repeat(300),
        "function add(a, b) {\n\treturn a + b;\n}\r\n".repeat(100),
        " ".repeat(500) + "x" + "\n".repeat(50),
        "在这个快速发展的时代，人工智能技术正在深刻地改变着我们的生活方式。".repeat(50),
        "supercalifragilisticexpialidocious antidisestablishmentarianism 12345678901234567890",
      ];
      for (const text of texts) expect(ours.countTokens(text)).toBe(theirs.countTokens(text));
    });

    test(`${name}: a special token's spelling is refused, as the library refuses it`, () => {
      expect(() => theirs.countTokens("a <|endoftext|> b")).toThrow();
      expect(() => ours.countTokens("a <|endoftext|> b")).toThrow();
      expect(ours.countTokens("a <|not special|> b")).toBe(theirs.countTokens("a <|not special|> b"));
    });
  }
});

describe("rank tables as typed arrays", () => {
  test("every rank of o200k is found by its own bytes, and bytes of no token are not", () => {
    const table = readRankTable("o200k_base");
    const ranks = table.starts.length - 1;
    expect(ranks).toBe(199_998);
    let misses = 0;
    for (let rank = 0; rank < ranks; rank++)
      if (rankOf(table, table.bytes, table.starts[rank]!, table.starts[rank + 1]!) !== rank) misses++;
    expect(misses).toBe(0);
    expect(rankOf(table, new TextEncoder().encode("zzqxjv-no-such-token-zzqxjv"), 0, 27)).toBe(-1);
  });

  test("a table is the decoded bytes of each line, with padding and without a final newline", () => {
    const lines = [
      Buffer.from([0xef, 0xbb, 0xbf]).toString("base64") + " 0",
      Buffer.from([0xe4, 0xbd]).toString("base64") + " 1",
      Buffer.from("hé").toString("base64") + " 2",
    ];
    const table = parseTiktoken(new TextEncoder().encode(lines.join("\n")));
    expect([...table.starts]).toEqual([0, 3, 5, 8]);
    expect([...table.bytes]).toEqual([0xef, 0xbb, 0xbf, 0xe4, 0xbd, ...Buffer.from("hé")]);
    expect(rankOf(table, new Uint8Array([0xe4, 0xbd]), 0, 2)).toBe(1);
  });

  test("a file whose ranks are out of order is refused rather than read wrong", () => {
    expect(() => parseTiktoken(new TextEncoder().encode("YQ== 1\nYg== 0\n"))).toThrow(/out of order/);
  });
});
