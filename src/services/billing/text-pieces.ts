// How a text is handed to the tokenizer so that its cost stays linear. The byte-pair encoder
// works on the pieces its split pattern finds (a word with its leading space, a run of
// punctuation, of spaces, a clause of Chinese...), and merging one piece costs far more than
// linear in its length: 16 000 "x" took 0.14 s, 64 000 took 2 s, 100 000 Chinese characters three
// minutes. Every piece lies inside a run of spaces or a run of non-spaces (apart from one leading
// space), so cutting runs longer than `maxRun` bounds every piece. Cuts are made where the
// pattern would cut anyway (before a space that follows a non-space; before sentence punctuation
// that follows a letter or digit), so ordinary text in any language is counted exactly; only runs
// nobody writes by hand (base64, one character repeated) are cut mid-piece, which changes their
// count by about a token per cut.

/** The longest run of spaces or of non-spaces handed to the encoder as one. */
export const maxRun = 64;
/** Slices of ordinary text end at the next space after this many characters. */
const maxSlice = 8192;

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9 || code === 12 || code === 11;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** ASCII letters and digits, kana and CJK ideographs: what a clause before punctuation ends with. */
const endsWord = (code: number) =>
  (code >= 48 && code <= 57) ||
  (code >= 65 && code <= 90) ||
  (code >= 97 && code <= 122) ||
  (code >= 0x3040 && code <= 0x30ff) ||
  (code >= 0x4e00 && code <= 0x9fff);

/** . , ; : ! ? and their full-width forms, and 、 。: the pattern starts a new piece at them. */
const sentencePunctuation = new Set([0x2e, 0x2c, 0x3b, 0x3a, 0x21, 0x3f, 0x3001, 0x3002, 0xff0c, 0xff1b, 0xff1a, 0xff01, 0xff1f]);

/** Where to cut a run that grew too long at `index`: after its last clause if it has one. */
function cutInRun(text: string, runStart: number, index: number): number {
  for (let at = index; at > runStart + 1; at--) {
    if (sentencePunctuation.has(text.charCodeAt(at)) && endsWord(text.charCodeAt(at - 1))) return at;
  }
  return isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}

/**
 * Calls `visit(from, to)` for consecutive slices of text[start, end) in which no run of spaces or
 * of non-spaces is longer than `maxRun` characters, until `visit` answers false. Returns how far
 * the visited slices reach (`end` when every slice was visited).
 */
export function forEachBoundedSlice(text: string, start: number, end: number, visit: (from: number, to: number) => boolean): number {
  let sliceStart = start;
  let runStart = start;
  let runIsSpace = start < end && isSpace(text.charCodeAt(start));
  for (let index = start; index < end; index++) {
    const code = text.charCodeAt(index);
    const space = isSpace(code);
    if (space !== runIsSpace) {
      // Before a space that follows a non-space, every pattern cuts: a free place to end a slice.
      if (code === 32 && index - sliceStart >= maxSlice) {
        if (!visit(sliceStart, index)) return index;
        sliceStart = index;
      }
      runStart = index;
      runIsSpace = space;
    } else if (index - runStart >= maxRun) {
      const cut = cutInRun(text, runStart, index);
      if (cut > sliceStart) {
        if (!visit(sliceStart, cut)) return cut;
        sliceStart = cut;
      }
      runStart = cut;
    }
  }
  if (sliceStart < end) visit(sliceStart, end);
  return end;
}

/**
 * A count nobody has to wait for, from the text's length and UTF-8 size alone (both native and
 * linear): a quarter token per ASCII character, one per character beyond. It is above the real
 * count for prose, code and Chinese, and below it only for dense ASCII such as base64 (about two
 * thirds of a token per character); callers scale it by what the exactly counted part showed.
 */
export function roughTokens(text: string): number {
  const extraBytes = Buffer.byteLength(text, "utf8") - text.length;
  const wide = extraBytes / 2;
  return Math.ceil(Math.max(0, text.length - wide) / 4 + wide);
}
