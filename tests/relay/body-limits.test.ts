// Request size limits of the relay (issue 15 §2): each endpoint reads at most its limit (JSON 32
// MB, audio uploads OpenAI's 25 MB, both configurable), enforced while the body arrives; a
// larger body gets 413 with the OpenAI error object, the rest of it is never read, and the
// server's memory stays where it was. The user's rate limit is checked before the body is read.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { toFile } from "openai";
import { sendStreamedBody } from "../helpers/raw-body.ts";
import { addChannel, addToken, openai, setOptions, startRelayWorld, withoutRequestId, type RelayWorld } from "../helpers/relay-world.ts";

let world: RelayWorld;
let key: string;
const megabyte = 1024 * 1024;

beforeAll(async () => {
  world = await startRelayWorld();
  await addChannel(world, { key: "sk-limits", models: "gpt-4o-mini,whisper-1" });
  key = (await addToken(world.root, { name: "limits" })).key;
});
afterAll(() => world.stop());
beforeEach(() => world.upstream.reset());

const peakResidentBytes = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${world.server.pid}/status`, "utf8"))![1]) * 1024;

const tooLarge = (limit: string) => ({
  error: { message: `请求体过大，上限为 ${limit}`, type: "new_api_error", param: null, code: "request_body_too_large" },
});

describe("JSON endpoints", () => {
  test("a body over 32 MB is refused while it arrives: 413, nothing of it kept, memory flat", async () => {
    // The peak (VmHWM), not the current size: garbage collection may come late on a busy machine.
    // Keeping at most 32 MB and reading the rest away measured about 25 MB; reading the whole
    // 96 MB body and decoding it, as before, about 130 MB.
    const before = peakResidentBytes();
    const answer = await sendStreamedBody({
      url: world.server.url,
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      totalBytes: 96 * megabyte,
    });
    expect(answer.status).toBe(413);
    expect(withoutRequestId(answer.json)).toEqual(tooLarge("32 MB"));
    expect(peakResidentBytes() - before).toBeLessThan(96 * megabyte);
    expect(world.upstream.received).toHaveLength(0);
  });

  test("an endless body is cut off: the server stops reading it", async () => {
    const answer = await sendStreamedBody({
      url: world.server.url,
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      totalBytes: 1024 * megabyte,
    });
    expect(answer.bytesSent).toBeLessThan(512 * megabyte);
  });

  test("a declared length over the limit is refused without keeping any of the body", async () => {
    const answer = await sendStreamedBody({
      url: world.server.url,
      path: "/v1/chat/completions",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      totalBytes: 40 * megabyte,
      declareLength: true,
    });
    expect(answer.status).toBe(413);
    expect(withoutRequestId(answer.json)).toEqual(tooLarge("32 MB"));
  });

  test("a body under the limit goes through", async () => {
    const content = "word ".repeat(6 * megabyte);
    const response = await fetch(`${world.server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer sk-${key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content }] }),
    });
    expect(response.status).toBe(200);
    expect(world.upstream.received[0]!.json.messages[0].content.length).toBe(content.length);
  });

  test("the user's request rate limit is checked before the body is read", async () => {
    await setOptions(world, { ModelRequestRateLimitEnabled: true, ModelRequestRateLimitCount: 1, ModelRequestRateLimitSuccessCount: 1000 });
    try {
      const limited = (await addToken(world.root, { name: "rate-limited" })).key;
      await openai(world, limited).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
      // Over the rate limit AND over the size limit: the rate limit answers, so nothing was parsed.
      const answer = await sendStreamedBody({
        url: world.server.url,
        path: "/v1/chat/completions",
        headers: { authorization: `Bearer sk-${limited}`, "content-type": "application/json" },
        totalBytes: 40 * megabyte,
      });
      expect(answer.status).toBe(429);
    } finally {
      await setOptions(world, { ModelRequestRateLimitEnabled: false });
    }
  });
});

describe("audio uploads", () => {
  test("a 24 MB recording is transcribed; a 27 MB one gets 413 (OpenAI's limit is 25 MB)", async () => {
    const client = openai(world, key);
    const small = await client.audio.transcriptions.create({
      model: "whisper-1",
      file: await toFile(new Uint8Array(24 * megabyte), "speech.mp3"),
    });
    expect(small.text).toBeString();
    expect(world.upstream.received).toHaveLength(1);
    const boundary = "----limits";
    const head = `--${boundary}\r\ncontent-disposition: form-data; name="model"\r\n\r\nwhisper-1\r\n--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="long.mp3"\r\ncontent-type: audio/mpeg\r\n\r\n`;
    const answer = await sendStreamedBody({
      url: world.server.url,
      path: "/v1/audio/transcriptions",
      headers: { authorization: `Bearer sk-${key}`, "content-type": `multipart/form-data; boundary=${boundary}` },
      totalBytes: head.length + 27 * megabyte,
      chunk: new Uint8Array(Buffer.from(head + "a".repeat(64 * 1024 - head.length))),
    });
    expect(answer.status).toBe(413);
    expect(withoutRequestId(answer.json)).toEqual(tooLarge("26 MB"));
    expect(world.upstream.received).toHaveLength(1);
  });
});
