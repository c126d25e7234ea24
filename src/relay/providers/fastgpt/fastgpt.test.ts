import { describe, expect, test } from "bun:test";
import { fastgptError } from "./fastgpt-errors.ts";
import { fastgptKeyParts } from "./fastgpt.ts";

describe("FastGPT", () => {
  test("APIKey-AppId splits at the app id; an app key alone stays whole", () => {
    expect(fastgptKeyParts("fastgpt-0sp2gtvfdgyi4k30jwlgwf1i-64f335d84283f05518e9e041")).toEqual({
      apiKey: "fastgpt-0sp2gtvfdgyi4k30jwlgwf1i",
      appId: "64f335d84283f05518e9e041",
    });
    expect(fastgptKeyParts("fastgpt-0sp2gtvfdgyi4k30jwlgwf1i")).toEqual({ apiKey: "fastgpt-0sp2gtvfdgyi4k30jwlgwf1i" });
  });

  test("statusText says whose fault a failure is", () => {
    expect(fastgptError({ code: 514, statusText: "unAuthApiKey", message: "Api Key 不合法", data: null }, 500)).toMatchObject({
      type: "authentication_error",
      status: 401,
      code: 514,
    });
    expect(fastgptError({ code: 510, statusText: "insufficientQuota", message: "账号余额不足", data: null }, 500)).toMatchObject({
      type: "insufficient_quota",
      status: 429,
    });
    expect(fastgptError({ code: 500, statusText: "error", message: "boom" }, 500)).toMatchObject({ type: "upstream_error", status: 500 });
    expect(fastgptError({ choices: [] }, 200)).toBeUndefined();
  });
});
