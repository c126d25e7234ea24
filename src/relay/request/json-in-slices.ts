// JSON.parse of a large body without holding up the event loop. Parsing 30 MB of JSON in one call
// takes about a second on a small machine when the body is made of many small values (ten million
// empty objects, a million distinct keys), and nothing else runs meanwhile. Here the body is cut
// into pieces at the boundaries between the members of its large objects and arrays: each piece
// (at most `groupBytes`, or one long string or number) is parsed by the native JSON.parse, the
// containers are put together in JavaScript, and the event loop gets a turn every `sliceMs`.
//
// The result and the failures are JSON.parse's on the decoded body: the same values (a key named
// `__proto__` stays an own property, the last of duplicate keys wins, a leading UTF-8 BOM is
// skipped as TextDecoder skips it), and a SyntaxError for anything JSON.parse refuses. Pieces are
// cut only at structural characters outside strings, which are ASCII, so no UTF-8 sequence is cut.
//
// First pass: the brackets are matched (a body nested deeper than `maxDepth` stops there) and the
// spans of the containers larger than `bigSpan` are kept. Second pass: those containers are walked
// member by member; everything else is parsed natively in groups.

import { turnIsLong, waitForShortTurn } from "../loop-turns.ts";

export type SlicedParseOptions = {
  maxDepth: number;
  /** More array elements and object members than this (counted by their commas and brackets) are refused. */
  maxValues?: number;
  /** Containers spanning more bytes than this are assembled member by member. */
  bigSpan?: number;
  /** Consecutive small members are parsed together up to about this many bytes. */
  groupBytes?: number;
  /** The event loop gets a turn at least this often (milliseconds of work). */
  sliceMs?: number;
};

export type SlicedParse = { refused: "too-deep" | "too-many-values" } | { refused?: undefined; value: unknown };

const quote = 0x22;
const backslash = 0x5c;
const comma = 0x2c;
const colon = 0x3a;
const openBrace = 0x7b;
const closeBrace = 0x7d;
const openBracket = 0x5b;
const closeBracket = 0x5d;

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;

const syntaxError = () => new SyntaxError("JSON Parse error: unexpected token");

/**
 * Runs a generator, giving the event loop a turn at each of its yields; it goes on only in a turn
 * that still has room (loop-turns.ts), so that several large bodies parsed at once take turns
 * instead of all running their next slice in the same turn.
 */
async function drive<T>(work: Generator<void, T>): Promise<T> {
  if (turnIsLong(performance.now())) await waitForShortTurn();
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
    await waitForShortTurn();
  }
}

/** The position after the string starting at `at` (its opening quote). */
function stringEnd(bytes: Uint8Array, at: number): number {
  let end = at;
  for (;;) {
    end = bytes.indexOf(quote, end + 1);
    if (end < 0) throw syntaxError();
    let escapes = 0;
    while (bytes[end - 1 - escapes] === backslash) escapes++;
    if (escapes % 2 === 0) return end + 1;
  }
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

class Slicer {
  private readonly decoder = new TextDecoder();
  private readonly bigSpan: number;
  private readonly groupBytes: number;
  private readonly sliceMs: number;
  private deadline = 0;
  /** Where each container larger than `bigSpan` closes, by where it opens. */
  readonly closeOf = new Map<number, number>();

  constructor(
    private readonly bytes: Uint8Array,
    options: SlicedParseOptions,
  ) {
    this.bigSpan = options.bigSpan ?? 256 * 1024;
    this.groupBytes = options.groupBytes ?? 64 * 1024;
    this.sliceMs = options.sliceMs ?? 8;
  }

  private due(): boolean {
    if (performance.now() < this.deadline) return false;
    this.deadline = performance.now() + this.sliceMs;
    return true;
  }

  startSlice(): void {
    this.deadline = performance.now() + this.sliceMs;
  }

  /** First pass: brackets matched, nested at most `maxDepth` deep, at most `maxValues` values. */
  *matchBrackets(from: number, to: number, maxDepth: number, maxValues: number): Generator<void, SlicedParse["refused"]> {
    const { bytes } = this;
    const opens: number[] = [];
    let values = 0;
    let nextCheck = from + 65536;
    for (let i = from; i < to; i++) {
      if (i >= nextCheck) {
        nextCheck = i + 65536;
        if (this.due()) yield;
      }
      const byte = bytes[i]!;
      if (byte === quote) i = stringEnd(bytes, i) - 1;
      else if (byte === comma) {
        if (++values > maxValues) return "too-many-values";
      } else if (byte === openBrace || byte === openBracket) {
        if (opens.length >= maxDepth) return "too-deep";
        if (++values > maxValues) return "too-many-values";
        opens.push(i);
      } else if (byte === closeBrace || byte === closeBracket) {
        const open = opens.pop();
        if (open === undefined || bytes[open] !== (byte === closeBrace ? openBrace : openBracket)) throw syntaxError();
        if (i - open > this.bigSpan) this.closeOf.set(open, i);
      }
    }
    if (opens.length > 0) throw syntaxError();
    return undefined;
  }

  /** The end of a value that is not a large container: bounded by `bigSpan` for containers. */
  private smallValueEnd(at: number, limit: number): number {
    const { bytes } = this;
    const first = bytes[at];
    if (first === quote) return stringEnd(bytes, at);
    if (first === openBrace || first === openBracket) {
      let depth = 0;
      for (let i = at; i < limit; i++) {
        const byte = bytes[i]!;
        if (byte === quote) i = stringEnd(bytes, i) - 1;
        else if (byte === openBrace || byte === openBracket) depth++;
        else if ((byte === closeBrace || byte === closeBracket) && --depth === 0) return i + 1;
      }
      throw syntaxError();
    }
    let end = at;
    while (end < limit) {
      const byte = bytes[end];
      if (byte === comma || byte === closeBrace || byte === closeBracket || isSpace(byte)) break;
      end++;
    }
    if (end === at) throw syntaxError();
    return end;
  }

  private native(from: number, to: number, wrap?: "[]" | "{}"): unknown {
    const text = this.decoder.decode(this.bytes.subarray(from, to));
    return JSON.parse(wrap ? wrap[0] + text + wrap[1] : text);
  }

  /** The one value spanning exactly [from, to) (the body without its surrounding whitespace). */
  *root(from: number, to: number): Generator<void, unknown> {
    const first = this.bytes[from];
    if (first !== openBrace && first !== openBracket) return this.native(from, to);
    const close = this.closeOf.get(from);
    if (close === to - 1) return yield* this.container(from, close);
    // Something after the root container: refused before a large one is parsed for nothing.
    if (close !== undefined || to - 1 - from > this.bigSpan) throw syntaxError();
    return this.native(from, to);
  }

  private *container(open: number, close: number): Generator<void, unknown> {
    const { bytes } = this;
    const isObject = bytes[open] === openBrace;
    const result: Record<string, unknown> | unknown[] = isObject ? {} : [];
    let groupStart = -1;
    let groupEnd = -1;
    const flush = () => {
      if (groupStart < 0) return;
      if (isObject) {
        const members = this.native(groupStart, groupEnd, "{}") as Record<string, unknown>;
        for (const key of Object.keys(members)) assign(result as Record<string, unknown>, key, members[key]);
      } else {
        for (const element of this.native(groupStart, groupEnd, "[]") as unknown[]) (result as unknown[]).push(element);
      }
      groupStart = -1;
    };
    let at = skipSpace(bytes, open + 1);
    if (at === close) return result;
    for (;;) {
      const memberStart = at;
      let keyEnd = at;
      if (isObject) {
        if (bytes[at] !== quote) throw syntaxError();
        keyEnd = stringEnd(bytes, at);
        at = skipSpace(bytes, keyEnd);
        if (bytes[at] !== colon) throw syntaxError();
        at = skipSpace(bytes, at + 1);
      }
      const childClose = this.closeOf.get(at);
      let valueEnd: number;
      if (childClose !== undefined) {
        flush();
        const child = yield* this.container(at, childClose);
        if (isObject) assign(result as Record<string, unknown>, this.native(memberStart, keyEnd) as string, child);
        else (result as unknown[]).push(child);
        valueEnd = childClose + 1;
      } else {
        valueEnd = this.smallValueEnd(at, close);
        if (groupStart < 0) groupStart = memberStart;
        groupEnd = valueEnd;
        if (groupEnd - groupStart >= this.groupBytes) flush();
      }
      at = skipSpace(bytes, valueEnd);
      if (at === close) break;
      if (bytes[at] !== comma) throw syntaxError();
      at = skipSpace(bytes, at + 1);
      if (at >= close) throw syntaxError();
      if (groupStart < 0 && this.due()) yield;
    }
    flush();
    if (this.due()) yield;
    return result;
  }
}

/** JSON.parse's own way to add a member: `__proto__` becomes an own property, not the prototype. */
function assign(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

/**
 * Parses `bytes` (UTF-8 JSON) in slices: refused when it nests deeper than `options.maxDepth` or
 * holds more than `options.maxValues` values, else the value JSON.parse would give; throws
 * SyntaxError where it would.
 */
export async function parseJsonInSlices(bytes: Uint8Array, options: SlicedParseOptions): Promise<SlicedParse> {
  const slicer = new Slicer(bytes, options);
  slicer.startSlice();
  // TextDecoder drops a leading byte order mark before JSON.parse sees the text; so do we.
  let from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let to = bytes.length;
  from = skipSpace(bytes, from);
  while (to > from && isSpace(bytes[to - 1])) to--;
  if (from === to) throw syntaxError();
  const refused = await drive(slicer.matchBrackets(from, to, options.maxDepth, options.maxValues ?? Number.POSITIVE_INFINITY));
  if (refused) return { refused };
  return { value: await drive(slicer.root(from, to)) };
}
