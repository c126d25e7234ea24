// Property-based fuzzing of the relay (plan D7, Q6): fast-check draws bodies (any JSON, a valid
// call with any field replaced by any value, raw text and bytes) and headers (content types,
// broken and foreign credentials, odd extra headers) for every /v1 endpoint, the vendors'
// formats (count_tokens and countTokens included) and the drawing and music task submissions.
// The upstreams are healthy and never answer 5xx, so for every input:
//   - the gateway answers below 500 (a 5xx would be the gateway's own failure);
//   - a refusal carries an error message (the OpenAI shape, Claude's or Google's on their
//     formats, midjourney-proxy's `description` and the Suno proxies' `message` on tasks);
//   - an answer, streamed or not, ends before its timeout (no hang);
//   - afterwards nothing is reserved and the ledger invariants hold (no leaked reservation).
// FAULTS_FUZZ_RUNS sets the number of inputs (npm test runs a few hundred, test:faults more);
// FAULTS_SEED replays a run.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { addChannel, setOptions } from "../helpers/relay-world.ts";
import { addSpender, reportFigures, startFaultWorld, type FaultWorld, type Spender } from "../helpers/fault-world.ts";
import { headerArbitrary, jsonBodyFor, relayPaths } from "../helpers/fuzz-inputs.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let world: FaultWorld;
let spender: Spender;
let midjourney: MidjourneyUpstream;
let suno: SunoUpstream;
const opening = 1_000_000_000;
const granted = 200_000_000;
beforeAll(async () => {
  world = await startFaultWorld({ STREAMING_TIMEOUT: "10", RELAY_TIMEOUT: "20" });
  await addChannel(world, {
    key: "sk-fuzz",
    models: "gpt-4o-mini,gpt-4o,text-embedding-3-small,dall-e-3,tts-1,whisper-1,text-moderation-latest,rerank-english-v3.0",
  });
  midjourney = await startMidjourneyUpstream({ secrets: ["mj-fuzz"] });
  await addChannel(world, {
    key: "mj-fuzz",
    type: ChannelType.Midjourney,
    base_url: midjourney.url,
    models: "mj_imagine,mj_blend,mj_describe,mj_upscale,mj_variation,mj_reroll,mj_zoom",
  });
  suno = await startSunoUpstream({ keys: ["suno-fuzz"] });
  await addChannel(world, { key: "suno-fuzz", type: ChannelType.Suno, base_url: suno.url, models: "suno_music,suno_lyrics" });
  spender = await addSpender(world, "fuzzer", opening, granted);
  // Counting is limited per minute (100 by default): the fuzzer counts far more often than that.
  await setOptions(world, { CountTokensRateLimit: 0 });
});
afterAll(async () => {
  await world.stop();
  await midjourney.stop();
  await suno.stop();
});

const runs = Number(process.env.FAULTS_FUZZ_RUNS ?? 300);
const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);
/** Well past the relay's own limits above: an answer still open then is a hang. */
const hangMs = 45_000;

/** A path, then a body for it: mostly JSON (valid, spoiled or anything), sometimes raw text or bytes. */
const callArbitrary = fc
  .constantFrom(...relayPaths)
  .chain((path) =>
    fc.tuple(
      fc.constant(path),
      fc.oneof(
        { weight: 8, arbitrary: jsonBodyFor(path).map((value) => JSON.stringify(value)) },
        { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
        { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }) },
      ),
    ),
  );

test(`${runs} fuzzed relay calls: no 5xx, no hang, error objects, nothing reserved`, async () => {
  const statuses = new Map<number, number>();
  const credentials = [`Bearer sk-${spender.key}`, `Bearer sk-${spender.limitedKey}`];
  await fc.assert(
    fc.asyncProperty(callArbitrary, headerArbitrary(credentials), async ([path, body], headers) => {
      let response: Response;
      try {
        response = await fetch(world.server.url + path, { method: "POST", headers, body, signal: AbortSignal.timeout(hangMs) });
      } catch (error) {
        // Headers fetch itself refuses to send are not an input the gateway can receive.
        if (error instanceof TypeError && /header/i.test(error.message)) return;
        throw error;
      }
      const text = await response.text();
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      expect({ path, status: response.status, text: response.status >= 500 ? text : "" }).toEqual({
        path,
        status: response.status < 500 ? response.status : -1,
        text: "",
      });
      if (response.status >= 400) {
        const parsed = JSON.parse(text);
        expect(typeof (parsed.error?.message ?? parsed.error ?? parsed.description ?? parsed.message)).toBe("string");
      }
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  const figures = await world.check({
    totals: [{ userId: spender.userId, total: opening }],
    granted: [{ tokenId: spender.limitedId, granted }],
  });
  reportFigures("fuzz-relay", {
    seed,
    inputs: runs,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    upstreamCalls: world.upstream.received.length,
    taskSubmissions: midjourney.receivedAt("/mj/submit/imagine").length + suno.receivedAt("/suno/submit/music").length,
    charged: figures.consumptionLogs,
  });
}, 600_000);

/** Inputs the fuzzing found answering 500, kept as fixed cases (and their kin on other formats). */
const found: [path: string, body: Record<string, unknown>][] = [
  ["/v1/messages", { model: "gpt-4o-mini", messages: [{ role: "user", content: "4" }], max_tokens: 295, tools: [null] }],
  ["/v1/messages", { model: "gpt-4o-mini", messages: [{ role: "user", content: "4" }], max_tokens: 295, tools: [7, "x", []] }],
  ["/v1/responses", { model: "gpt-4o-mini", input: "4", tools: [null] }],
  ["/v1/chat/completions", { model: "gpt-4o-mini", messages: [{ role: "user", content: "4" }], tools: [null] }],
  ["/v1beta/models/gpt-4o-mini:generateContent", { contents: [{ role: "user", parts: [{ text: "4" }] }], tools: [null] }],
  ...[":generateContent", ":streamGenerateContent?alt=sse", ":countTokens"].map((method): [string, Record<string, unknown>] => [
    `/v1beta/models/gpt-4o-mini${method}`,
    { contents: [{ role: "user", parts: [{ text: "4" }] }], tools: [{ functionDeclarations: [null] }] },
  ]),
];

test("inputs the fuzzing found are refused as the client's error, never a 500", async () => {
  for (const [path, body] of found) {
    const response = await fetch(world.server.url + path, {
      method: "POST",
      headers: { authorization: `Bearer sk-${spender.key}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect({ path, body, status: response.status < 500 ? "below 500" : response.status }).toEqual({ path, body, status: "below 500" });
  }
  await world.check({ totals: [{ userId: spender.userId, total: opening }], granted: [{ tokenId: spender.limitedId, granted }] });
});

test("a function declaration that is not an object is Gemini's 400 on every Gemini method, and nothing goes upstream", async () => {
  const before = world.upstream.received.length;
  for (const method of [":generateContent", ":streamGenerateContent?alt=sse", ":countTokens"]) {
    const response = await fetch(`${world.server.url}/v1beta/models/gpt-4o-mini${method}`, {
      method: "POST",
      headers: { "x-goog-api-key": `sk-${spender.key}`, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "4" }] }], tools: [{ functionDeclarations: [null] }] }),
    });
    const body = (await response.json()) as { error: { code: number; status: string; message: string } };
    expect({ method, status: response.status, code: body.error.code, google: body.error.status }).toEqual({
      method,
      status: 400,
      code: 400,
      google: "INVALID_ARGUMENT",
    });
    expect(body.error.message).toStartWith("字段 functionDeclarations 无效");
  }
  expect(world.upstream.received.length).toBe(before);
});
