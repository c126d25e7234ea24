// The byte-pair rank tables of the local token counts, kept in three typed arrays instead of
// JavaScript objects. gpt-tokenizer builds a Map of 200,000 strings for o200k: about 40 MB of
// resident memory, and 200,000 cells that every full collection of the relay's heap must mark
// again (measured under 256 paced streams: peak memory 198 MB with it, 131 MB without, and
// event-loop stalls of 100 to 400 ms). Here a table is the token bytes end to end, where each
// rank's bytes start, and an open-addressing hash of the byte strings: about 4.5 MB for o200k,
// three objects for the collector, built in a few tens of milliseconds on the first count.
//
// The source is the package's own `.tiktoken` file (one "base64-token rank" line per token, ranks
// 0..n-1 in order), embedded in the executable as a file. The counting that uses the table is
// byte-pair-count.ts; tests/unit/byte-pair-count.test.ts checks both against gpt-tokenizer.
import { readFileSync } from "node:fs";
import cl100kFile from "gpt-tokenizer/data/cl100k_base.tiktoken" with { type: "file" };
import o200kFile from "gpt-tokenizer/data/o200k_base.tiktoken" with { type: "file" };

export type RankedEncoding = "o200k_base" | "cl100k_base";

export type RankTable = {
  /** Every token's bytes, by rank, end to end. */
  bytes: Uint8Array;
  /** Where rank r's bytes start in `bytes`; rank r ends where r + 1 starts (length = ranks + 1). */
  starts: Uint32Array;
  /** Open addressing over the byte strings: rank + 1 at a slot, 0 for an empty one. */
  slots: Int32Array;
};

const files: Record<RankedEncoding, string> = { o200k_base: o200kFile, cl100k_base: cl100kFile };

export function readRankTable(name: RankedEncoding): RankTable {
  return parseTiktoken(readFileSync(files[name]));
}

/** FNV-1a over bytes[from, to): cheap, and spreads the short byte strings of a vocabulary well. */
function hashBytes(bytes: Uint8Array, from: number, to: number): number {
  let hash = 0x811c9dc5;
  for (let at = from; at < to; at++) hash = Math.imul(hash ^ bytes[at]!, 0x01000193);
  return hash >>> 0;
}

const base64Values = (() => {
  const values = new Int8Array(256).fill(-1);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (let index = 0; index < alphabet.length; index++) values[alphabet.charCodeAt(index)] = index;
  return values;
})();

/** Decodes base64 text[from, to) into out at `at`; returns where the written bytes end. */
function decodeBase64Into(text: Uint8Array, from: number, to: number, out: Uint8Array, at: number): number {
  while (to > from && text[to - 1] === 61) to--; // "=" padding
  let index = from;
  for (; index + 4 <= to; index += 4) {
    const bits =
      (base64Values[text[index]!]! << 18) |
      (base64Values[text[index + 1]!]! << 12) |
      (base64Values[text[index + 2]!]! << 6) |
      base64Values[text[index + 3]!]!;
    out[at] = bits >> 16;
    out[at + 1] = (bits >> 8) & 0xff;
    out[at + 2] = bits & 0xff;
    at += 3;
  }
  const left = to - index;
  if (left >= 2) {
    const bits =
      (base64Values[text[index]!]! << 18) |
      (base64Values[text[index + 1]!]! << 12) |
      (left === 3 ? base64Values[text[index + 2]!]! << 6 : 0);
    out[at++] = bits >> 16;
    if (left === 3) out[at++] = (bits >> 8) & 0xff;
  }
  return at;
}

/** A table from the bytes of a `.tiktoken` file; ranks must run 0..n-1 in order, as the files do. */
export function parseTiktoken(file: Uint8Array): RankTable {
  let lines = 0;
  for (let at = file.indexOf(10); at !== -1; at = file.indexOf(10, at + 1)) lines++;
  if (file.length > 0 && file[file.length - 1] !== 10) lines++;
  // Base64 is 4 characters for 3 bytes, so the file's size bounds the decoded bytes.
  const pool = new Uint8Array(Math.ceil((file.length * 3) / 4));
  const starts = new Uint32Array(lines + 1);
  let ranks = 0;
  let written = 0;
  let lineStart = 0;
  while (lineStart < file.length) {
    let lineEnd = file.indexOf(10, lineStart);
    if (lineEnd === -1) lineEnd = file.length;
    const space = file.indexOf(32, lineStart);
    if (space > lineStart && space < lineEnd) {
      let rank = 0;
      for (let index = space + 1; index < lineEnd; index++) if (file[index] !== 13) rank = rank * 10 + file[index]! - 48;
      if (rank !== ranks) throw new Error(`rank table out of order: rank ${rank} where ${ranks} was expected`);
      starts[ranks] = written;
      written = decodeBase64Into(file, lineStart, space, pool, written);
      ranks++;
    }
    lineStart = lineEnd + 1;
  }
  starts[ranks] = written;
  const bytes = pool.slice(0, written);
  return { bytes, starts: starts.slice(0, ranks + 1), slots: hashSlots(bytes, starts, ranks) };
}

function hashSlots(bytes: Uint8Array, starts: Uint32Array, ranks: number): Int32Array {
  // At most 40 % full, so a miss (most lookups of a merge are misses) ends after few probes.
  let size = 1;
  while (size < ranks * 2.5) size *= 2;
  const slots = new Int32Array(size);
  const mask = size - 1;
  for (let rank = 0; rank < ranks; rank++) {
    let slot = hashBytes(bytes, starts[rank]!, starts[rank + 1]!) & mask;
    while (slots[slot] !== 0) slot = (slot + 1) & mask;
    slots[slot] = rank + 1;
  }
  return slots;
}

/** The rank of key[from, to), or -1 when those bytes are no token. */
export function rankOf(table: RankTable, key: Uint8Array, from: number, to: number): number {
  const { bytes, starts, slots } = table;
  const mask = slots.length - 1;
  const length = to - from;
  for (let slot = hashBytes(key, from, to) & mask; ; slot = (slot + 1) & mask) {
    const entry = slots[slot]!;
    if (entry === 0) return -1;
    const rank = entry - 1;
    const start = starts[rank]!;
    if (starts[rank + 1]! - start !== length) continue;
    let same = true;
    for (let offset = 0; offset < length; offset++) {
      if (bytes[start + offset] !== key[from + offset]) {
        same = false;
        break;
      }
    }
    if (same) return rank;
  }
}
