// Counting the tokens of a text with a compact rank table (tokenizer-ranks.ts): the text is split
// by the encoding's own pattern (taken from gpt-tokenizer), and each piece that is not a token by
// itself is merged as tiktoken does: repeatedly join the adjacent pair whose bytes have the lowest
// rank, until no adjacent pair is a token. The count is the number of parts left. Counting needs
// no token ids and no decoder, so neither is built. tests/unit/byte-pair-count.test.ts checks the
// counts against gpt-tokenizer's on its published test plans and on generated text.
import { Cl100KBase } from "gpt-tokenizer/encodingParams/cl100k_base";
import { O200KBase } from "gpt-tokenizer/encodingParams/o200k_base";
import { rankOf, readRankTable, type RankedEncoding, type RankTable } from "./tokenizer-ranks.ts";

export type TokenCounter = {
  /** Tokens of the text; throws on a special token's spelling, as gpt-tokenizer's countTokens does. */
  countTokens(text: string): number;
};

/** The split pattern and special tokens, from the library's parameters (no rank table passed). */
function parametersOf(name: RankedEncoding): { split: RegExp; specials: string[] } {
  const parameters = name === "o200k_base" ? O200KBase([]) : Cl100KBase([]);
  return { split: parameters.tokenSplitRegex, specials: [...parameters.specialTokensEncoder.keys()] };
}

export function loadTokenCounter(name: RankedEncoding): TokenCounter {
  return tokenCounterFrom(readRankTable(name), parametersOf(name));
}

export function tokenCounterFrom(table: RankTable, { split, specials }: { split: RegExp; specials: string[] }): TokenCounter {
  const encoder = new TextEncoder();
  // Scratch space reused by every piece (pieces are short: text-pieces.ts bounds them).
  let bytes = new Uint8Array(256);
  let starts = new Int32Array(257);
  let ranks = new Float64Array(257);

  const rankAt = (parts: number, index: number): number => {
    // The pair of parts index and index + 1: bytes from starts[index] to starts[index + 2].
    if (index + 2 >= parts) return Infinity;
    const rank = rankOf(table, bytes, starts[index]!, starts[index + 2]!);
    return rank < 0 ? Infinity : rank;
  };

  /** Parts left after merging the piece's `length` bytes (in `bytes`). */
  const mergedParts = (length: number): number => {
    if (starts.length < length + 1) {
      starts = new Int32Array(length + 1);
      ranks = new Float64Array(length + 1);
    }
    // parts = boundaries: starts[0..parts), the last one is the end of the piece.
    let parts = length + 1;
    for (let index = 0; index < parts; index++) starts[index] = index;
    for (let index = 0; index < parts; index++) ranks[index] = rankAt(parts, index);
    for (;;) {
      let lowest = Infinity;
      let at = -1;
      for (let index = 0; index < parts - 2; index++) {
        if (ranks[index]! < lowest) {
          lowest = ranks[index]!;
          at = index;
        }
      }
      if (at < 0) break;
      // Join parts at and at + 1: drop boundary at + 1.
      starts.copyWithin(at + 1, at + 2, parts);
      ranks.copyWithin(at + 1, at + 2, parts);
      parts--;
      ranks[at] = rankAt(parts, at);
      if (at > 0) ranks[at - 1] = rankAt(parts, at - 1);
    }
    return parts - 1;
  };

  const countPiece = (piece: string): number => {
    // UTF-8 needs at most 3 bytes per UTF-16 unit.
    if (bytes.length < piece.length * 3) bytes = new Uint8Array(piece.length * 3);
    const { written } = encoder.encodeInto(piece, bytes);
    if (rankOf(table, bytes, 0, written) >= 0) return 1;
    return mergedParts(written);
  };

  return {
    countTokens(text: string): number {
      if (text.includes("<|")) {
        for (const special of specials) if (text.includes(special)) throw new Error(`special token in text: ${special}`);
      }
      let tokens = 0;
      for (const [piece] of text.matchAll(split)) tokens += countPiece(piece);
      return tokens;
    },
  };
}
