import { describe, expect, test } from "bun:test";
import { jsonDepthWithin } from "./json-depth.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("JSON depth", () => {
  test("counts brackets outside strings only", () => {
    expect(jsonDepthWithin(bytes('{"a":[[1]]}'), 3)).toBe(true);
    expect(jsonDepthWithin(bytes('{"a":[[[1]]]}'), 3)).toBe(false);
    expect(jsonDepthWithin(bytes('{"a":"[[[[[[\\"[[[[\\\\"}'), 1)).toBe(true);
    expect(jsonDepthWithin(bytes(`[${"[]".repeat(1000)}]`), 2)).toBe(true);
    expect(jsonDepthWithin(bytes("[".repeat(200_000) + "]".repeat(200_000)))).toBe(false);
  });
});
