// Counting the tokens of a text with a compact rank table (tokenizer-ranks.ts): the text is split
// by the encoding's own pattern (taken from gpt-tokenizer), and each piece that is not a token by
// itself is merged as tiktoken does: repeatedly join the adjacent pair whose bytes have the lowest
// rank, until no adjacent pair is a token. The count is the number of parts left. Counting needs
// no token ids and no decoder, so neither is built. tests/unit/byte-pair-count.test.ts checks the
// counts against gpt-tokenizer's on its published test plans and on generated text.
//
// A count can also be bounded by work, in steps of this algorithm rather than in time, so the
// same text stops at the same place on any machine at any load (token-counter.ts): a piece costs
// `pieceSteps` for being found and encoded, one step per byte hashed by a rank lookup (the
// piece's, then each pair's), and one per pair compared or moved while merging it. A count stops before the first piece it has
// no steps left for, so it overshoots its budget by one piece at most; merging is quadratic in
// the piece's length, which text-pieces.ts keeps short.
import { Cl100KBase } from "gpt-tokenizer/encodingParams/cl100k_base";
import { O200KBase } from "gpt-tokenizer/encodingParams/o200k_base";
import { rankOf, readRankTable, type RankedEncoding, type RankTable } from "./tokenizer-ranks.ts";

/** Work left to one count, in steps (see above); spent by `countPrefix`. */
export type WorkBudget = { steps: number };

/** Steps of finding and encoding one piece, besides its bytes. */
export const pieceSteps = 100;

export type TokenCounter = {
  /** Tokens of the text; throws on a special token's spelling, as gpt-tokenizer's countTokens does. */
  countTokens(text: string): number;
  /**
   * Tokens of text[0, reached): pieces are counted while the budget has steps left, each paying
   * the steps it took. reached is text.length when the budget sufficed. Throws like countTokens,
   * before spending anything.
   */
  countPrefix(text: string, budget: WorkBudget): { tokens: number; reached: number };
};

/** The split pattern and special tokens, from the library's parameters (no rank table passed). */
function parametersOf(name: RankedEncoding): { split: RegExp; specials: string[] } {
  const parameters = name === "o200k_base" ? O200KBase([]) : Cl100KBase([]);
  return { split: parameters.tokenSplitRegex, specials: [...parameters.specialTokensEncoder.keys()] };
}

export function loadTokenCounter(name: RankedEncoding): TokenCounter {
  return tokenCounterFrom(readRankTable(name), parametersOf(name));
}

function tokenCounterFrom(table: RankTable, { split, specials }: { split: RegExp; specials: string[] }): TokenCounter {
  const encoder = new TextEncoder();
  // Scratch space reused by every piece (pieces are short: text-pieces.ts bounds them).
  let bytes = new Uint8Array(256);
  let starts = new Int32Array(257);
  let ranks = new Float64Array(257);
  /** Steps taken by the last piece counted. */
  let pieceWork = 0;

  const rankAt = (parts: number, index: number): number => {
    // The pair of parts index and index + 1: bytes from starts[index] to starts[index + 2].
    if (index + 2 >= parts) return Infinity;
    pieceWork += starts[index + 2]! - starts[index]!;
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
      pieceWork += parts + parts - at;
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
    pieceWork = pieceSteps + written;
    if (rankOf(table, bytes, 0, written) >= 0) return 1;
    return mergedParts(written);
  };

  const refuseSpecials = (text: string) => {
    if (!text.includes("<|")) return;
    for (const special of specials) if (text.includes(special)) throw new Error(`special token in text: ${special}`);
  };

  return {
    countTokens(text: string): number {
      refuseSpecials(text);
      let tokens = 0;
      for (const [piece] of text.matchAll(split)) tokens += countPiece(piece);
      return tokens;
    },
    countPrefix(text: string, budget: WorkBudget): { tokens: number; reached: number } {
      refuseSpecials(text);
      let tokens = 0;
      for (const match of text.matchAll(split)) {
        if (budget.steps <= 0) return { tokens, reached: match.index };
        tokens += countPiece(match[0]);
        budget.steps -= pieceWork;
      }
      return { tokens, reached: text.length };
    },
  };
}
