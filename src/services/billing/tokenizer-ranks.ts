// gpt-tokenizer's rank tables, read as data. The package ships each encoding twice: as a
// JavaScript module (an array literal of 200,000 strings, 2.4 MB for o200k) and as the plain
// `.tiktoken` file (one "base64-token rank" line per token). Bundled as JavaScript, the table
// is source (or bytecode) that every start of the executable loads although most starts count
// no token for a while; as an embedded file it costs nothing until the first count, which
// parses it here into the form GptEncoding takes (tests/unit/tokenizer-ranks.test.ts checks
// that it equals the package's own table, rank by rank).
import { readFileSync } from "node:fs";
import cl100kFile from "gpt-tokenizer/data/cl100k_base.tiktoken" with { type: "file" };
import o200kFile from "gpt-tokenizer/data/o200k_base.tiktoken" with { type: "file" };

export type RankedEncoding = "o200k_base" | "cl100k_base";

/** A token's text when its bytes are UTF-8, else its bytes (GptEncoding's bytePairRankDecoder). */
export type RankTable = (string | number[])[];

const files: Record<RankedEncoding, string> = { o200k_base: o200kFile, cl100k_base: cl100kFile };

export function readRankTable(name: RankedEncoding): RankTable {
  return parseTiktoken(readFileSync(files[name], "latin1"));
}

export function parseTiktoken(text: string): RankTable {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  const table: RankTable = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const space = text.indexOf(" ", start);
    if (space > start && space < end) {
      const bytes = Uint8Array.fromBase64(text.slice(start, space));
      table[Number(text.slice(space + 1, end))] = tokenValue(decoder, bytes);
    }
    start = end + 1;
  }
  return table;
}

function tokenValue(decoder: TextDecoder, bytes: Uint8Array): string | number[] {
  // A leading byte-order mark would be dropped by decoding, so those tokens stay bytes (as in
  // the package's table); so do byte sequences that are not UTF-8 on their own.
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return Array.from(bytes);
  try {
    return decoder.decode(bytes);
  } catch {
    return Array.from(bytes);
  }
}
