// The playground's pure parts: the request it builds, the code it shows for it, what an answer
// costs and how that reads, and stop sequences.
import { describe, expect, test } from "bun:test";
import { answerQuota, formatDollars, formatPrice, formatQuota } from "./answer-cost.ts";
import { chatBody } from "./chat-request.ts";
import { codeSample, programBody } from "./code-samples.ts";
import { defaultParameters, stopSequences, type Message } from "./conversation.ts";

const user = (content: string, images?: string[]): Message => ({ id: content, role: "user", content, images, state: "complete" });
const answer = (content: string, state: Message["state"] = "complete"): Message => ({ id: content, role: "assistant", content, state });

describe("the request", () => {
  test("system prompt, finished history, pictures as image_url parts, stream usage; optional parameters only when on", () => {
    const body = chatBody({
      model: "gpt-4o-mini",
      system: "Be brief.",
      history: [user("one"), answer("failed", "error"), user("two"), answer("Two."), user("look", ["data:image/png;base64,AAA"])],
      parameters: defaultParameters,
      group: "vip",
    });
    expect(body).toEqual({
      model: "gpt-4o-mini",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "one" },
        { role: "user", content: "two" },
        { role: "assistant", content: "Two." },
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
          ],
        },
      ],
      stream: true,
      group: "vip",
      stream_options: { include_usage: true },
      temperature: 0.7,
    });
  });

  test("every parameter when switched on; no stream options without streaming", () => {
    const body = chatBody({
      model: "o3-mini",
      system: " ",
      history: [user("hi")],
      parameters: {
        ...defaultParameters,
        topPEnabled: true,
        topP: 0.5,
        maxTokens: 10,
        stop: "a\n\nb\\nc",
        presenceEnabled: true,
        presencePenalty: 1,
        frequencyEnabled: true,
        frequencyPenalty: -1,
        stream: false,
        reasoningEffort: "low",
      },
    });
    expect(body).toEqual({
      model: "o3-mini",
      messages: [{ role: "user", content: "hi" }],
      stream: false,
      temperature: 0.7,
      top_p: 0.5,
      max_tokens: 10,
      stop: ["a", "b\nc"],
      presence_penalty: 1,
      frequency_penalty: -1,
      reasoning_effort: "low",
    });
  });

  test("at most four stop sequences, one per line", () => {
    expect(stopSequences("1\n2\n3\n4\n5")).toEqual(["1", "2", "3", "4"]);
    expect(stopSequences("")).toEqual([]);
  });
});

describe("view code", () => {
  const body = programBody({
    model: "m",
    messages: [{ role: "user", content: 'it\'s "quoted"' }],
    stream: false,
    temperature: 0.7,
    group: "vip",
    logprobs: null,
  });

  test("the console's group is not part of a program's request", () => {
    expect(body.group).toBeUndefined();
  });

  test("curl quotes the body for the shell", () => {
    const curl = codeSample("curl", { baseUrl: "https://gw.example", key: "sk-abc", body, shorten: false });
    expect(curl.split("\n").slice(0, 3)).toEqual([
      "curl https://gw.example/v1/chat/completions \\",
      '  -H "Content-Type: application/json" \\',
      '  -H "Authorization: Bearer sk-abc" \\',
    ]);
    const quoted = curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'"));
    expect(JSON.parse(quoted.replace(/'\\''/g, "'"))).toEqual(body);
  });

  test("Python gets literals it can run: True, False, None", () => {
    const python = codeSample("python", { baseUrl: "https://gw.example", key: "sk-abc", body, shorten: false });
    expect(python).toContain('client = OpenAI(base_url="https://gw.example/v1", api_key="sk-abc")');
    expect(python).toContain("    stream=False,\n    temperature=0.7,\n    logprobs=None,\n)");
    expect(python).toContain('"content": "it\'s \\"quoted\\"",');
  });

  test("long data URLs are shortened on screen, never in what is copied", () => {
    const picture = `data:image/png;base64,${"A".repeat(4000)}`;
    const withPicture = { ...body, messages: [{ role: "user", content: [{ type: "image_url", image_url: { url: picture } }] }] };
    expect(codeSample("javascript", { baseUrl: "x", key: "k", body: withPicture, shorten: true })).toContain("…(4 KB)");
    expect(codeSample("javascript", { baseUrl: "x", key: "k", body: withPicture, shorten: false })).toContain(picture);
  });
});

describe("cost", () => {
  const prices = {
    models: {
      "gpt-4o-mini": { kind: "ratio" as const, modelRatio: 0.075, completionRatio: 4 },
      dall: { kind: "fixed" as const, price: 0.04 },
      free: null,
    },
    groupRatios: { vip: 2 },
  };

  test("the relay's formula over the page's prices and the group's ratio", () => {
    expect(answerQuota(prices, "gpt-4o-mini", "default", { prompt_tokens: 42, completion_tokens: 120 }, 500_000)).toBe(39);
    expect(answerQuota(prices, "gpt-4o-mini", "vip", { prompt_tokens: 42, completion_tokens: 120 }, 500_000)).toBe(78);
    expect(answerQuota(prices, "dall", "default", { prompt_tokens: 1 }, 500_000)).toBe(20_000);
    expect(answerQuota(prices, "free", "default", { prompt_tokens: 1 }, 500_000)).toBeUndefined();
    expect(answerQuota(prices, "gpt-4o-mini", "default", undefined, 500_000)).toBeUndefined();
  });

  test("small costs keep their digits; quota is shown raw when the site shows no currency", () => {
    expect([0, 0.000078, 0.0042, 0.05, 0.31, 12.4].map(formatDollars)).toEqual(["$0", "$0.000078", "$0.0042", "$0.05", "$0.31", "$12.40"]);
    expect([0.15, 0.6, 0.075, 10].map(formatPrice)).toEqual(["$0.15", "$0.60", "$0.075", "$10.00"]);
    expect(formatQuota(39, { quotaPerUnit: 500_000, displayInCurrency: true })).toBe("$0.000078");
    expect(formatQuota(39, { quotaPerUnit: 500_000, displayInCurrency: false })).toBe("39");
  });
});
