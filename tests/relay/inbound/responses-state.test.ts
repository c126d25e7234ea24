// The Responses API's state kept by the gateway (issue 24 item 2), through the real server with
// the official `openai` client and the AI SDK's default provider: responses the gateway answers
// over a chat-only channel are kept per user, so previous_response_id, item_reference and
// GET/DELETE /v1/responses/{id} (+ input_items) work there; responses an OpenAI channel answers
// stay upstream, and every follow-up and read goes back to that channel; nothing is served to
// another user; store: false and the operator's switch keep nothing; deleting a user forgets them.
import { createOpenAI } from "@ai-sdk/openai";
import { generateText, jsonSchema, stepCountIs, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { addChannel, addToken, n, one, openai, postRelay, setOptions } from "../../helpers/relay-world.ts";
import { lastReceived, startInboundWorld, type InboundWorld } from "../../helpers/inbound-world.ts";
import { newUserSession } from "../../helpers/api-session.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: InboundWorld;
let otherKey: string;
let otherUserId: number;

beforeAll(async () => {
  world = await startInboundWorld();
  const other = await newUserSession(world.server.url, "other24");
  otherUserId = other.userId!;
  await world.server.store.query("update users set quota = 10000000 where id = ?", otherUserId);
  otherKey = (await addToken(other, { name: "other" })).key;
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const client = (key = world.key) => openai(world, key);
const sdk = (key = world.key) => createOpenAI({ baseURL: `${world.server.url}/v1`, apiKey: `sk-${key}` });

const weather = tool({
  description: "Current weather",
  inputSchema: jsonSchema<{ city: string }>({ type: "object", properties: { city: { type: "string" } }, required: ["city"] }),
  execute: async ({ city }) => `${city}: 12C`,
});

describe("kept by the gateway over a chat-only channel", () => {
  test("previous_response_id: the kept conversation goes in front of the input; instructions are not carried over", async () => {
    world.upstream.behave("sk-deepseek-ch", [{ content: "Noted: 7." }, { content: "It was 7." }, { content: "Twice." }]);
    const first = await client().responses.create({ model: "chat-only", instructions: "Be brief.", input: "Remember 7." });
    expect((first as { store?: boolean }).store).toBe(true);
    const second = await client().responses.create({ model: "chat-only", input: "Which number?", previous_response_id: first.id });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toBe("It was 7.");
    expect(lastReceived(world, "sk-deepseek-ch").json.messages).toEqual([
      { role: "user", content: "Remember 7." },
      { role: "assistant", content: "Noted: 7." },
      { role: "user", content: "Which number?" },
    ]);
    await client().responses.create({ model: "chat-only", input: "How often?", previous_response_id: second.id, stream: false });
    expect(lastReceived(world, "sk-deepseek-ch").json.messages.map((message: { content: string }) => message.content)).toEqual([
      "Remember 7.",
      "Noted: 7.",
      "Which number?",
      "It was 7.",
      "How often?",
    ]);
  });

  test("GET, input_items and DELETE read the kept response; a deleted one is gone for reads and follow-ups", async () => {
    world.upstream.behave("sk-deepseek-ch", { content: "Kept answer." });
    const created = await client().responses.create({
      model: "chat-only",
      input: [
        { role: "user", content: "one" },
        { role: "user", content: "two" },
        { role: "user", content: "three" },
      ],
    });
    const read = await client().responses.retrieve(created.id);
    expect(read).toMatchObject({ id: created.id, object: "response", status: "completed", model: "chat-only", store: true });
    expect(read.output).toEqual(created.output);
    expect(read.output_text).toBe("Kept answer.");

    const items = await client().responses.inputItems.list(created.id, { order: "asc" });
    const texts = items.data.map((item) => (item as { content: { text: string }[] }).content[0]!.text);
    expect(texts).toEqual(["one", "two", "three"]);
    for (const item of items.data) expect(item.id).toStartWith("msg_");
    const page = await postRelay(world, "/v1/responses", world.key, {}); // a bad call in between changes nothing
    expect(page.status).toBe(400);
    const firstPage = await fetch(`${world.server.url}/v1/responses/${created.id}/input_items?limit=2&order=asc`, {
      headers: { authorization: `Bearer sk-${world.key}` },
    }).then((response) => response.json());
    expect(firstPage).toMatchObject({ object: "list", has_more: true, first_id: items.data[0]!.id, last_id: items.data[1]!.id });
    const rest = await fetch(`${world.server.url}/v1/responses/${created.id}/input_items?order=asc&after=${items.data[1]!.id}`, {
      headers: { authorization: `Bearer sk-${world.key}` },
    }).then((response) => response.json());
    expect(rest).toMatchObject({ has_more: false, data: [{ id: items.data[2]!.id }] });

    const deleted = await client().responses.delete(created.id);
    expect(deleted).toEqual({ id: created.id, object: "response", deleted: true } as never);
    expect(await statusOf(client().responses.retrieve(created.id))).toBe(404);
    const followUp = await postRelay(world, "/v1/responses", world.key, {
      model: "chat-only",
      input: "x",
      previous_response_id: created.id,
    });
    expect(followUp.status).toBe(400);
    expect(followUp.json.error.code).toBe("previous_response_not_found");
    expect(n((await one(world, "select count(*) as c from stored_response_items where response_id = ?", created.id)).c)).toBe(0);
  });

  test("a streamed answer is kept before its response.completed reaches the client", async () => {
    world.upstream.behave("sk-deepseek-ch", { content: "a b c ", chunks: 3 });
    const stream = await client().responses.create({ model: "chat-only", input: "Letters", stream: true });
    let id = "";
    for await (const event of stream) {
      if (event.type !== "response.completed") continue;
      id = event.response.id;
      // Read back at once, while the stream is still open: the keeper wrote before this event left.
      const read = await client().responses.retrieve(id);
      expect(read.output_text).toBe("a b c ");
    }
    expect(id).toStartWith("resp_");
  });

  test("the AI SDK's default provider: a three-step tool loop whose later steps refer to the kept items", async () => {
    world.upstream.behave("sk-deepseek-ch", [
      { reasoning: "Need the weather.", content: "Let me check Kyiv.", toolCalls: [{ name: "weather", arguments: '{"city":"Kyiv"}' }] },
      { content: "And Lviv.", toolCalls: [{ name: "weather", arguments: '{"city":"Lviv"}' }] },
      { content: "Both mild." },
    ]);
    const sent: any[] = [];
    const provider = createOpenAI({
      baseURL: `${world.server.url}/v1`,
      apiKey: `sk-${world.key}`,
      fetch: (async (input: RequestInfo | URL, init?: RequestInit) => {
        if (typeof init?.body === "string") sent.push(JSON.parse(init.body));
        return fetch(input, init);
      }) as typeof fetch,
    });
    const result = await generateText({
      model: provider("chat-only"),
      prompt: "Weather in Kyiv and Lviv?",
      tools: { weather },
      stopWhen: stepCountIs(3),
      providerOptions: { openai: { forceReasoning: true, reasoningSummary: "auto" } },
      maxRetries: 0,
    });
    expect(result.text).toBe("Both mild.");
    expect(result.steps).toHaveLength(3);
    // The SDK referred back to the gateway's own output items instead of resending them...
    const references = sent[1].input.filter((item: { type: string }) => item.type === "item_reference");
    expect(references.length).toBeGreaterThan(0);
    // ...and the channel still received the whole conversation.
    const calls = world.upstream.receivedBy("sk-deepseek-ch");
    expect(calls).toHaveLength(3);
    const third = calls[2]!.json.messages;
    expect(third[0]).toEqual({ role: "user", content: "Weather in Kyiv and Lviv?" });
    expect(third[1]).toMatchObject({ role: "assistant", content: "Let me check Kyiv.", tool_calls: [{ function: { name: "weather" } }] });
    expect(third[2]).toMatchObject({ role: "tool", content: "Kyiv: 12C" });
    expect(third[3]).toMatchObject({
      role: "assistant",
      content: "And Lviv.",
      tool_calls: [{ function: { arguments: '{"city":"Lviv"}' } }],
    });
    expect(third[4]).toMatchObject({ role: "tool", content: "Lviv: 12C" });
  });

  test("streamText with the AI SDK: a two-step loop over streams", async () => {
    world.upstream.behave("sk-deepseek-ch", [
      { content: "Checking.", chunks: 1, toolCalls: [{ name: "weather", arguments: '{"city":"Odesa"}' }] },
      { content: "Warm day.", chunks: 2 },
    ]);
    const stream = streamText({ model: sdk()("chat-only"), prompt: "Odesa?", tools: { weather }, stopWhen: stepCountIs(2), maxRetries: 0 });
    expect(await stream.text).toBe("Warm day.");
    const second = world.upstream.receivedBy("sk-deepseek-ch")[1]!.json.messages;
    expect(second[1]).toMatchObject({ role: "assistant", content: "Checking." });
  });
});

describe("never served to another user", () => {
  test("reads, follow-ups and item references of another user's responses are not found", async () => {
    const mine = await client().responses.create({ model: "chat-only", input: "secret" });
    expect(await statusOf(client(otherKey).responses.retrieve(mine.id))).toBe(404);
    expect(await statusOf(client(otherKey).responses.inputItems.list(mine.id))).toBe(404);
    expect(await statusOf(client(otherKey).responses.delete(mine.id))).toBe(404);
    const followUp = await postRelay(world, "/v1/responses", otherKey, { model: "chat-only", input: "x", previous_response_id: mine.id });
    expect(followUp.json.error.code).toBe("previous_response_not_found");
    const itemId = mine.output[0]!.id;
    const reference = await postRelay(world, "/v1/responses", otherKey, {
      model: "chat-only",
      input: [{ type: "item_reference", id: itemId }],
    });
    expect(reference.status).toBe(400);
    expect(reference.json.error.message).toContain(itemId);
    expect((await client().responses.retrieve(mine.id)).id).toBe(mine.id);
  });
});

describe("nothing kept when the client or the operator says so", () => {
  test("store: false", async () => {
    const unkept = await client().responses.create({ model: "chat-only", input: "forget", store: false });
    expect((unkept as { store?: boolean }).store).toBe(false);
    expect(await statusOf(client().responses.retrieve(unkept.id))).toBe(404);
  });

  test("ResponsesStoreEnabled off", async () => {
    await setOptions(world, { ResponsesStoreEnabled: false });
    try {
      const unkept = await client().responses.create({ model: "chat-only", input: "forget" });
      expect((unkept as { store?: boolean }).store).toBe(false);
      expect(await statusOf(client().responses.retrieve(unkept.id))).toBe(404);
    } finally {
      await setOptions(world, { ResponsesStoreEnabled: true });
    }
  });
});

describe("kept upstream by an OpenAI channel", () => {
  test("reads and deletes go to the channel that answered; a follow-up goes back to it even when another is preferred", async () => {
    const created = await client().responses.create({ model: "gpt-pass", input: "Remember 9." });
    expect(created.id).toStartWith("resp_mock");
    const route = await one(world, "select channel_id, body from stored_responses where id = ?", created.id);
    expect({ channel: n(route.channel_id), body: route.body }).toEqual({ channel: world.channels.openai, body: "" });

    const read = await client().responses.retrieve(created.id);
    expect(read.id).toBe(created.id);
    expect(lastReceived(world, "sk-openai-ch")).toMatchObject({ method: "GET", path: `/v1/responses/${created.id}` });
    const items = await client().responses.inputItems.list(created.id);
    expect(items.data).toHaveLength(1);
    expect(lastReceived(world, "sk-openai-ch").path).toBe(`/v1/responses/${created.id}/input_items`);
    expect(await statusOf(client(otherKey).responses.retrieve(created.id))).toBe(404);

    // A second OpenAI channel, preferred for the model from now on.
    const preferred = await addChannel(world, { type: ChannelType.OpenAI, key: "sk-openai-preferred", models: "gpt-pass", priority: 10 });
    await waitForRoute(async () => {
      world.upstream.reset();
      await client().responses.create({ model: "gpt-pass", input: "probe", store: false });
      return world.upstream.receivedBy("sk-openai-preferred").length === 1;
    });
    await client().responses.create({ model: "gpt-pass", input: "Which?", previous_response_id: created.id });
    expect(lastReceived(world, "sk-openai-ch").json.previous_response_id).toBe(created.id);

    const deleted = await client().responses.delete(created.id);
    expect(deleted).toMatchObject({ id: created.id, deleted: true });
    expect(lastReceived(world, "sk-openai-ch").method).toBe("DELETE");
    expect(await statusOf(client().responses.retrieve(created.id))).toBe(404);
    await world.root.delete(`/api/channel/${preferred}`);
  });

  test("a follow-up whose channel is gone is refused clearly, not sent elsewhere", async () => {
    const lonely = await addChannel(world, { type: ChannelType.OpenAI, key: "sk-openai-lonely", models: "gpt-lonely", priority: 5 });
    await setOptions(world, { ModelRatio: JSON.stringify({ "gpt-lonely": 2, "gpt-pass": 2, "chat-only": 2, "gpt-4.1-azure": 2 }) });
    let created: { id: string } | undefined;
    await waitForRoute(async () => {
      created = await client()
        .responses.create({ model: "gpt-lonely", input: "hi" })
        .catch(() => undefined);
      return created !== undefined;
    });
    const other = await addChannel(world, { type: ChannelType.OpenAI, key: "sk-openai-other", models: "gpt-lonely" });
    await world.root.put("/api/channel/", { id: lonely, status: 2 });
    const refused = await postRelay(world, "/v1/responses", world.key, {
      model: "gpt-lonely",
      input: "x",
      previous_response_id: created!.id,
    });
    expect(refused.status).toBe(503);
    expect(refused.json.error.code).toBe("channel_unavailable");
    expect(world.upstream.receivedBy("sk-openai-other")).toHaveLength(0);
    await world.root.delete(`/api/channel/${other}`);
  });
});

test("deleting a user forgets what was kept for them", async () => {
  const kept = await client(otherKey).responses.create({ model: "chat-only", input: "mine" });
  expect(n((await one(world, "select count(*) as c from stored_responses where user_id = ?", otherUserId)).c)).toBeGreaterThan(0);
  const deleted = await world.root.delete(`/api/user/${otherUserId}`);
  expect(deleted.body.success).toBe(true);
  expect(n((await one(world, "select count(*) as c from stored_responses where user_id = ?", otherUserId)).c)).toBe(0);
  expect(n((await one(world, "select count(*) as c from stored_response_items where response_id = ?", kept.id)).c)).toBe(0);
});

/** The HTTP status an SDK call failed with (0 when it succeeded). */
function statusOf(call: PromiseLike<unknown>): Promise<number> {
  return Promise.resolve(call).then(
    () => 0,
    (error: { status?: number }) => error.status ?? -1,
  );
}

/** A channel change reaches the relay's index through a notice: retry until it shows. */
async function waitForRoute(ready: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 50; attempt++) {
    if (await ready()) return;
    await Bun.sleep(100);
  }
  throw new Error("the channel change never reached the relay");
}
