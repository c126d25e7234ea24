import { describe, expect, test } from "bun:test";
import fc from "fast-check";
import { parseJsonInSlices } from "./json-in-slices.ts";

/** Equal as JSON.parse results: same key order, own `__proto__` keys, prototypes, -0. */
function same(a: unknown, b: unknown): boolean {
  if (typeof a !== typeof b) return false;
  if (typeof a === "number") return Object.is(a, b);
  if (a === null || b === null || typeof a !== "object") return a === b;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((item, index) => same(item, (b as unknown[])[index]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b as object);
  if (keysA.join("\u0000") !== keysB.join("\u0000")) return false;
  return keysA.every((key) => same((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}

type Outcome = { threw: true } | { threw: false; value: unknown };

function native(bytes: Uint8Array): Outcome {
  try {
    return { threw: false, value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { threw: true };
  }
}

async function sliced(bytes: Uint8Array, bigSpan: number, groupBytes: number): Promise<Outcome> {
  try {
    const parsed = await parseJsonInSlices(bytes, { maxDepth: 1000, bigSpan, groupBytes, sliceMs: 0 });
    if (parsed.refused) throw new Error(`unexpectedly refused: ${parsed.refused}`);
    return { threw: false, value: parsed.value };
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error;
    return { threw: true };
  }
}

const space = fc.constantFrom("", " ", "\n", "\t", "\r\n  ");
const key = fc.oneof(
  fc.constantFrom('"__proto__"', '"\\u005f_proto__"', '"a"', '"a"', '"b"', '"0"', '"10"', '"constructor"', '"é"'),
  fc.string({ maxLength: 6 }).map((text) => JSON.stringify(text)),
);
const scalar = fc.oneof(
  fc.constantFrom("true", "false", "null", "0", "-0", "1e400", "-12.5e-3", '""', '"\\"\\\\"', '"\\ud83d\\ude00"', '"😀"'),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((number) => JSON.stringify(number)),
  fc.string({ maxLength: 12 }).map((text) => JSON.stringify(text)),
);

/** JSON texts with whitespace anywhere, duplicate and `__proto__` keys, escapes. */
const { json } = fc.letrec((tie) => ({
  json: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalar, tie("array"), tie("object")),
  array: fc
    .tuple(space, fc.array(fc.tuple(space, tie("json"), space), { maxLength: 6 }))
    .map(([inner, items]) => `[${inner}${items.map(([before, item, after]) => before + item + after).join(",")}]`),
  object: fc
    .tuple(space, fc.array(fc.tuple(key, space, tie("json"), space), { maxLength: 6 }))
    .map(([inner, members]) => `{${inner}${members.map(([name, gap, value, after]) => `${name}${gap}:${value}${after}`).join(",")}}`),
})) as { json: fc.Arbitrary<string> };

const encoder = new TextEncoder();

describe("JSON parsed in slices", () => {
  test("gives what JSON.parse gives for any JSON text, cut anywhere", async () => {
    await fc.assert(
      fc.asyncProperty(json, space, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 40 }), async (text, outer, big, group) => {
        const bytes = encoder.encode(outer + text + outer);
        const expected = native(bytes);
        expect(expected.threw).toBe(false);
        const got = await sliced(bytes, big, group);
        expect(got.threw).toBe(false);
        expect(same((got as { value: unknown }).value, (expected as { value: unknown }).value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test("refuses exactly what JSON.parse refuses", async () => {
    const edit = fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "replace"), fc.constantFrom(...',:[]{}"\\ 1ae-\u00ff'));
    await fc.assert(
      fc.asyncProperty(json, fc.array(edit, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 30 }), async (text, edits, big) => {
        let broken = text;
        for (const [position, kind, char] of edits) {
          const at = position % (broken.length + 1);
          broken =
            kind === "delete"
              ? broken.slice(0, at) + broken.slice(at + 1)
              : kind === "insert"
                ? broken.slice(0, at) + char + broken.slice(at)
                : broken.slice(0, at) + char + broken.slice(at + 1);
        }
        const bytes = encoder.encode(broken);
        const expected = native(bytes);
        const got = await sliced(bytes, big, 8);
        expect(got.threw).toBe(expected.threw);
        if (!got.threw && !expected.threw) expect(same(got.value, expected.value)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  test("a key named __proto__ is an own property, never the prototype", async () => {
    const bytes = encoder.encode(`{"a":[1,2,3,4,5,6],"__proto__":{"stream":true},"b":{"\\u005f_proto__":[7]}}`);
    const parsed = await parseJsonInSlices(bytes, { maxDepth: 10, bigSpan: 4, groupBytes: 4 });
    const value = (parsed as { value: Record<string, any> }).value;
    expect(value.stream).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.hasOwn(value, "__proto__")).toBe(true);
    expect(Object.hasOwn(value.b, "__proto__")).toBe(true);
  });

  test("byte order mark, invalid UTF-8 and text around the root as TextDecoder and JSON.parse see them", async () => {
    for (const raw of [
      [0xef, 0xbb, 0xbf, ...encoder.encode('{"a":[1,2]}')],
      [...encoder.encode('{"a":"'), 0xe4, 0xb8, ...encoder.encode('","b":[1]}')],
      [...encoder.encode('{"a":[1,2,3,4,5]} x')],
      [...encoder.encode('{"a":[1,2,3,4,5]}{}')],
      [...encoder.encode('"text"  ')],
    ]) {
      const bytes = new Uint8Array(raw);
      const expected = native(bytes);
      const got = await sliced(bytes, 2, 2);
      expect(got.threw).toBe(expected.threw);
      if (!got.threw && !expected.threw) expect(same(got.value, expected.value)).toBe(true);
    }
  });

  test("nesting deeper than the limit, or more values than allowed, is reported before anything is parsed", async () => {
    const deep = encoder.encode(`{"a":${"[".repeat(200)}1${"]".repeat(200)}}`);
    expect(await parseJsonInSlices(deep, { maxDepth: 128 })).toEqual({ refused: "too-deep" });
    const fine = encoder.encode(`{"a":${"[".repeat(120)}1${"]".repeat(120)}}`);
    expect((await parseJsonInSlices(fine, { maxDepth: 128, bigSpan: 8 })).refused).toBeUndefined();
    const many = encoder.encode(`{"a":[${"0,".repeat(1000)}0],"b":"${",".repeat(5000)}"}`);
    expect(await parseJsonInSlices(many, { maxDepth: 128, maxValues: 1000 })).toEqual({ refused: "too-many-values" });
    expect((await parseJsonInSlices(many, { maxDepth: 128, maxValues: 1003 })).refused).toBeUndefined();
  });

  test("ten million values are parsed with the event loop turning between slices", async () => {
    const bytes = encoder.encode(
      `{"model":"m","x":[${"{},".repeat(3_000_000)}{}],"k":{${Array.from({ length: 200_000 }, (_, i) => `"k${i}":${i}`).join(",")}}}`,
    );
    let turns = 0;
    let longest = 0;
    let last = performance.now();
    let done = false;
    const ticker = (async () => {
      while (!done) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        const now = performance.now();
        longest = Math.max(longest, now - last);
        last = now;
        turns++;
      }
    })();
    const parsed = await parseJsonInSlices(bytes, { maxDepth: 128 });
    done = true;
    await ticker;
    const value = (parsed as { value: Record<string, any> }).value;
    expect(value.x.length).toBe(3_000_001);
    expect(value.k.k199999).toBe(199_999);
    // Not a timing bound: the loop turned many times while the parse was under way.
    expect(turns).toBeGreaterThan(10);
    console.log(`[json-in-slices] ${(bytes.length / 1e6).toFixed(1)} MB: ${turns} turns, longest wait ${longest.toFixed(0)} ms`);
  });
});
