// The rank tables read from the embedded .tiktoken files must equal the package's own tables
// (its bpeRanks modules, which the executable no longer bundles), rank by rank.
import { describe, expect, test } from "bun:test";
import { parseTiktoken, readRankTable, type RankedEncoding } from "../../src/services/billing/tokenizer-ranks.ts";

async function packageTable(name: RankedEncoding): Promise<(string | number[])[]> {
  return (await import(`gpt-tokenizer/bpeRanks/${name}`)).default;
}

describe("tokenizer rank tables as data", () => {
  for (const name of ["o200k_base", "cl100k_base"] as const) {
    test(`${name} equals the package's table`, async () => {
      const ours = readRankTable(name);
      const theirs = await packageTable(name);
      expect(ours.length).toBe(theirs.length);
      let differing = 0;
      for (let rank = 0; rank < theirs.length; rank++) {
        const a = theirs[rank]!;
        const b = ours[rank]!;
        if (typeof a === "string" ? a !== b : typeof b === "string" || a.join() !== b.join()) differing++;
      }
      expect(differing).toBe(0);
      // Both forms occur: text tokens and byte tokens (partial UTF-8, a leading byte-order mark).
      expect(ours.some((value) => typeof value !== "string")).toBe(true);
    });
  }

  test("a byte-order mark token stays bytes; invalid UTF-8 stays bytes; lines may end the file without a newline", () => {
    const text = [`${Buffer.from([0xef, 0xbb, 0xbf]).toString("base64")} 0`, `${Buffer.from([0xe4, 0xbd]).toString("base64")} 1`, `${Buffer.from("hé").toString("base64")} 2`].join("\n");
    expect(parseTiktoken(text)).toEqual([[0xef, 0xbb, 0xbf], [0xe4, 0xbd], "hé"]);
  });
});
