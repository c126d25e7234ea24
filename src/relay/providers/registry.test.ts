// Each upstream kind's URL, headers and body for the same call (the wire facts per vendor).
import { describe, expect, test } from "bun:test";
import type { UpstreamTarget } from "./adaptor.ts";
import { testCall } from "./openai-compatible/test-call.ts";
import { allAdaptors, hasAdaptor, loadAdaptor, loadAdaptors } from "./registry.ts";

const target = (type: number, extra: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  id: 1, type, key: "sk-channel", baseUrl: "", other: "", organization: "", setting: {}, ...extra,
});
const decode = (body: BodyInit | undefined) => JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));
const chat = testCall({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });

describe("provider registry", () => {
  test("the OpenAI-compatible family of issue 3 is registered", async () => {
    const kinds = (await allAdaptors()).map((adaptor) => adaptor.kind);
    for (const kind of [1, 3, 4, 8, 19, 25, 31, 40, 42, 43]) expect(kinds).toContain(kind);
  });

  test("adaptors load on first use: each line's kind is its adaptor's, loaded once, unknown kinds have none", async () => {
    const all = await allAdaptors();
    expect(all.length).toBe(31);
    expect(new Set(all.map((adaptor) => adaptor.kind)).size).toBe(all.length);
    for (const adaptor of all) {
      expect(hasAdaptor(adaptor.kind)).toBe(true);
      expect(await loadAdaptor(adaptor.kind)).toBe(adaptor);
    }
    expect(hasAdaptor(2)).toBe(false);
    expect(await loadAdaptor(2)).toBeUndefined();
    expect(await loadAdaptor(9999)).toBeUndefined();
    const some = await loadAdaptors([14, 9999, 14, 1]);
    expect([...some.keys()]).toEqual([14, 1]);
    expect(some.get(14)!.kind).toBe(14);
  });

  test("default addresses, and a base URL override (with or without /v1)", async () => {
    const family = [1, 4, 19, 25, 31, 40, 42, 43];
    const urls = Object.fromEntries(await Promise.all(family.map(async (kind) => [kind, (await (await loadAdaptor(kind))!.buildRequest(chat, target(kind))).url])));
    expect(urls).toEqual({
      1: "https://api.openai.com/v1/chat/completions",
      4: "http://localhost:11434/v1/chat/completions",
      19: "https://api.360.cn/v1/chat/completions",
      25: "https://api.moonshot.cn/v1/chat/completions",
      31: "https://api.lingyiwanwu.com/v1/chat/completions",
      40: "https://api.siliconflow.cn/v1/chat/completions",
      42: "https://api.mistral.ai/v1/chat/completions",
      43: "https://api.deepseek.com/v1/chat/completions",
    });
    expect((await (await loadAdaptor(1))!.buildRequest(chat, target(1, { baseUrl: "https://proxy.example" }))).url).toBe("https://proxy.example/v1/chat/completions");
    expect((await (await loadAdaptor(1))!.buildRequest(chat, target(1, { baseUrl: "https://proxy.example/v1" }))).url).toBe("https://proxy.example/v1/chat/completions");
  });

  test("OpenAI: Bearer key and the organization header", async () => {
    const request = await (await loadAdaptor(1))!.buildRequest(chat, target(1, { organization: "org-123" }));
    expect(request.headers.authorization).toBe("Bearer sk-channel");
    expect(request.headers["openai-organization"]).toBe("org-123");
  });

  test("Azure: deployment URL without dots, api-version from the channel (default 2023-06-01-preview), api-key header", async () => {
    const azure = (await loadAdaptor(3))!;
    const call = testCall({ model: "gpt-3.5-turbo", messages: [] });
    const request = await azure.buildRequest(call, target(3, { baseUrl: "https://res.openai.azure.com" }));
    expect(request.url).toBe("https://res.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2023-06-01-preview");
    expect(request.headers["api-key"]).toBe("sk-channel");
    expect(request.headers.authorization).toBeUndefined();
    const embeddings = await azure.buildRequest(testCall({ model: "text-embedding-3-small", input: "x" }, { endpoint: "embeddings" }), target(3, { baseUrl: "https://res.openai.azure.com", other: "2024-10-21" }));
    expect(embeddings.url).toBe("https://res.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21");
  });

  test("Azure asks for stream usage only from api-versions that know stream_options", async () => {
    const stream = testCall({ model: "gpt-4o", messages: [], stream: true });
    const old = decode((await (await loadAdaptor(3))!.buildRequest(stream, target(3, { baseUrl: "https://r" }))).body);
    const recent = decode((await (await loadAdaptor(3))!.buildRequest(stream, target(3, { baseUrl: "https://r", other: "2024-10-21" }))).body);
    expect(old.stream_options).toBeUndefined();
    expect(recent.stream_options).toEqual({ include_usage: true });
  });

  test("Custom: the base URL is the full URL, {model} replaced", async () => {
    const request = await (await loadAdaptor(8))!.buildRequest({ ...chat, upstreamModel: "my-model" }, target(8, { baseUrl: "https://gw.example/api/{model}/chat" }));
    expect(request.url).toBe("https://gw.example/api/my-model/chat");
  });

  test("Mistral receives only the fields it documents", async () => {
    const call = testCall({ model: "mistral-small-latest", messages: [], user: "someone", temperature: 0.1 });
    expect(decode((await (await loadAdaptor(42))!.buildRequest(call, target(42))).body)).toEqual({ model: "mistral-small-latest", messages: [], temperature: 0.1 });
  });

  test("balances: DeepSeek prefers USD, SiliconCloud totalBalance, OpenAI limit minus usage", async () => {
    expect((await loadAdaptor(43))!.parseBalance!(['{"balance_infos":[{"currency":"CNY","total_balance":"1"},{"currency":"USD","total_balance":"2.5"}]}'])).toBe(2.5);
    expect((await loadAdaptor(40))!.parseBalance!(['{"data":{"balance":"1","totalBalance":"3"}}'])).toBe(3);
    expect((await loadAdaptor(1))!.parseBalance!(['{"hard_limit_usd":120}', '{"total_usage":2050}'])).toBe(99.5);
    expect((await loadAdaptor(25))!.parseBalance!(['{"code":0,"data":{"available_balance":49.58894,"voucher_balance":46.58893,"cash_balance":3.00001},"scode":"0x0","status":true}'])).toBe(49.58894);
    expect((await loadAdaptor(42))!.buildBalanceRequests).toBeUndefined();
  });
});
