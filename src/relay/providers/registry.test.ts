// Each upstream type's URL, headers and body for the same call (the wire facts per vendor).
import { describe, expect, test } from "bun:test";
import type { UpstreamTarget } from "./adaptor.ts";
import { testCall } from "../../../tests/helpers/test-call.ts";
import { ChannelType, channelTypes } from "../../services/channels/channel-types.ts";
import { allAdaptors, defaultModelsOf, hasAdaptor, loadAdaptor, loadAdaptors } from "./registry.ts";

const target = (type: number, extra: Partial<UpstreamTarget> = {}): UpstreamTarget => ({
  id: 1,
  type,
  key: "sk-channel",
  baseUrl: "",
  other: "",
  organization: "",
  setting: {},
  ...extra,
});
const decode = (body: BodyInit | undefined) => JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body as Uint8Array));
const chat = testCall({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });

describe("provider registry", () => {
  test("the OpenAI-compatible family of issue 3 is registered", async () => {
    const types = (await allAdaptors()).map((adaptor) => adaptor.type);
    for (const type of [
      ChannelType.OpenAI,
      ChannelType.Azure,
      ChannelType.Ollama,
      ChannelType.Custom,
      ChannelType.AI360,
      ChannelType.Moonshot,
      ChannelType.ZeroOne,
      ChannelType.SiliconCloud,
      ChannelType.Mistral,
      ChannelType.DeepSeek,
    ])
      expect(types).toContain(type);
  });

  test("adaptors load on first use: each line's type is its adaptor's, loaded once, unknown types have none", async () => {
    const all = await allAdaptors();
    expect(all.length).toBe(31);
    expect(new Set(all.map((adaptor) => adaptor.type)).size).toBe(all.length);
    for (const adaptor of all) {
      expect(hasAdaptor(adaptor.type)).toBe(true);
      expect(await loadAdaptor(adaptor.type)).toBe(adaptor);
    }
    expect(hasAdaptor(ChannelType.Midjourney)).toBe(false);
    expect(await loadAdaptor(ChannelType.Midjourney)).toBeUndefined();
    expect(await loadAdaptor(9999)).toBeUndefined();
    const some = await loadAdaptors([ChannelType.Claude, 9999, ChannelType.Claude, ChannelType.OpenAI]);
    expect([...some.keys()]).toEqual([ChannelType.Claude, ChannelType.OpenAI]);
    expect(some.get(ChannelType.Claude)!.type).toBe(ChannelType.Claude);
  });

  test("the channel type table says which types have an adaptor, and gives their default models", async () => {
    const withAdaptor = channelTypes.filter((info) => info.relayedBy === "adaptor").map((info) => info.type);
    expect((await allAdaptors()).map((adaptor) => adaptor.type).sort((a, b) => a - b)).toEqual(withAdaptor.sort((a, b) => a - b));
    for (const info of channelTypes) expect([info.type, hasAdaptor(info.type)]).toEqual([info.type, info.relayedBy === "adaptor"]);
    expect(defaultModelsOf(ChannelType.Claude)).toContain("claude-sonnet-4-20250514");
    expect(defaultModelsOf(9999)).toEqual([]);
  });

  test("default addresses, and a base URL override (with or without /v1)", async () => {
    const family = [
      ChannelType.OpenAI,
      ChannelType.Ollama,
      ChannelType.AI360,
      ChannelType.Moonshot,
      ChannelType.ZeroOne,
      ChannelType.SiliconCloud,
      ChannelType.Mistral,
      ChannelType.DeepSeek,
    ];
    const urls = Object.fromEntries(
      await Promise.all(family.map(async (type) => [type, (await (await loadAdaptor(type))!.buildRequest(chat, target(type))).url])),
    );
    expect(urls).toEqual({
      [ChannelType.OpenAI]: "https://api.openai.com/v1/chat/completions",
      [ChannelType.Ollama]: "http://localhost:11434/v1/chat/completions",
      [ChannelType.AI360]: "https://api.360.cn/v1/chat/completions",
      [ChannelType.Moonshot]: "https://api.moonshot.cn/v1/chat/completions",
      [ChannelType.ZeroOne]: "https://api.lingyiwanwu.com/v1/chat/completions",
      [ChannelType.SiliconCloud]: "https://api.siliconflow.cn/v1/chat/completions",
      [ChannelType.Mistral]: "https://api.mistral.ai/v1/chat/completions",
      [ChannelType.DeepSeek]: "https://api.deepseek.com/v1/chat/completions",
    });
    expect(
      (await (await loadAdaptor(ChannelType.OpenAI))!.buildRequest(chat, target(ChannelType.OpenAI, { baseUrl: "https://proxy.example" })))
        .url,
    ).toBe("https://proxy.example/v1/chat/completions");
    expect(
      (
        await (await loadAdaptor(ChannelType.OpenAI))!.buildRequest(
          chat,
          target(ChannelType.OpenAI, { baseUrl: "https://proxy.example/v1" }),
        )
      ).url,
    ).toBe("https://proxy.example/v1/chat/completions");
  });

  test("OpenAI: Bearer key and the organization header", async () => {
    const request = await (await loadAdaptor(ChannelType.OpenAI))!.buildRequest(
      chat,
      target(ChannelType.OpenAI, { organization: "org-123" }),
    );
    expect(request.headers.authorization).toBe("Bearer sk-channel");
    expect(request.headers["openai-organization"]).toBe("org-123");
  });

  test("Azure: deployment URL without dots, api-version from the channel (default 2023-06-01-preview), api-key header", async () => {
    const azure = (await loadAdaptor(ChannelType.Azure))!;
    const call = testCall({ model: "gpt-3.5-turbo", messages: [] });
    const request = await azure.buildRequest(call, target(ChannelType.Azure, { baseUrl: "https://res.openai.azure.com" }));
    expect(request.url).toBe(
      "https://res.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2023-06-01-preview",
    );
    expect(request.headers["api-key"]).toBe("sk-channel");
    expect(request.headers.authorization).toBeUndefined();
    const embeddings = await azure.buildRequest(
      testCall({ model: "text-embedding-3-small", input: "x" }, { endpoint: "embeddings" }),
      target(ChannelType.Azure, { baseUrl: "https://res.openai.azure.com", other: "2024-10-21" }),
    );
    expect(embeddings.url).toBe("https://res.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21");
  });

  test("Azure asks for stream usage only from api-versions that know stream_options", async () => {
    const stream = testCall({ model: "gpt-4o", messages: [], stream: true });
    const old = decode(
      (await (await loadAdaptor(ChannelType.Azure))!.buildRequest(stream, target(ChannelType.Azure, { baseUrl: "https://r" }))).body,
    );
    const recent = decode(
      (
        await (await loadAdaptor(ChannelType.Azure))!.buildRequest(
          stream,
          target(ChannelType.Azure, { baseUrl: "https://r", other: "2024-10-21" }),
        )
      ).body,
    );
    expect(old.stream_options).toBeUndefined();
    expect(recent.stream_options).toEqual({ include_usage: true });
  });

  test("Custom: the base URL is the full URL, {model} replaced", async () => {
    const request = await (await loadAdaptor(ChannelType.Custom))!.buildRequest(
      { ...chat, upstreamModel: "my-model" },
      target(ChannelType.Custom, { baseUrl: "https://gw.example/api/{model}/chat" }),
    );
    expect(request.url).toBe("https://gw.example/api/my-model/chat");
  });

  test("Mistral receives only the fields it documents", async () => {
    const call = testCall({ model: "mistral-small-latest", messages: [], user: "someone", temperature: 0.1 });
    expect(decode((await (await loadAdaptor(ChannelType.Mistral))!.buildRequest(call, target(ChannelType.Mistral))).body)).toEqual({
      model: "mistral-small-latest",
      messages: [],
      temperature: 0.1,
    });
  });

  test("balances: DeepSeek prefers USD, SiliconCloud totalBalance, OpenAI limit minus usage", async () => {
    expect(
      (await loadAdaptor(ChannelType.DeepSeek))!.balance!.parse([
        '{"balance_infos":[{"currency":"CNY","total_balance":"1"},{"currency":"USD","total_balance":"2.5"}]}',
      ]),
    ).toBe(2.5);
    expect((await loadAdaptor(ChannelType.SiliconCloud))!.balance!.parse(['{"data":{"balance":"1","totalBalance":"3"}}'])).toBe(3);
    expect((await loadAdaptor(ChannelType.OpenAI))!.balance!.parse(['{"hard_limit_usd":120}', '{"total_usage":2050}'])).toBe(99.5);
    expect(
      (await loadAdaptor(ChannelType.Moonshot))!.balance!.parse([
        '{"code":0,"data":{"available_balance":49.58894,"voucher_balance":46.58893,"cash_balance":3.00001},"scode":"0x0","status":true}',
      ]),
    ).toBe(49.58894);
    expect((await loadAdaptor(ChannelType.Mistral))!.balance).toBeUndefined();
  });
});
