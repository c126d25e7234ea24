// The inputs the fuzz cases draw from: bodies shaped like real calls with any field replaced by
// anything (numbers past 2^53, NaN-like strings, deep nesting, wrong types), plain JSON, and
// headers a client can send (content types, credentials, odd extra headers). The paths: every
// /v1 endpoint, the vendors' formats (count_tokens and countTokens included), and the drawing and
// music task submissions (/mj/submit/*, /suno/submit/*).
import fc from "fast-check";

/** Values that break naive code: huge, negative, fractional, wrong type, empty, nested. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -1, 1e20, 2 ** 53, -(2 ** 53), 1.5, 1e308, -1e308, "", "NaN", "Infinity", "1e400", null, true, [], {}, "0x10", " 7 "),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 40 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const message = fc.record(
  {
    role: fc.oneof(fc.constantFrom("user", "system", "assistant", "tool", "developer", "function"), hostileValue),
    content: fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.array(
        fc.oneof(
          fc.record({ type: fc.constant("text"), text: fc.oneof(fc.string(), hostileValue) }),
          fc.record({
            type: fc.constant("image_url"),
            image_url: fc.oneof(fc.record({ url: fc.oneof(fc.webUrl(), fc.string()) }), hostileValue),
          }),
          hostileValue,
        ),
        { maxLength: 4 },
      ),
      hostileValue,
    ),
    name: hostileValue,
    tool_calls: hostileValue,
  },
  { requiredKeys: ["role", "content"] },
);

/** A call body with the fields every endpoint reads, each one valid or hostile. */
const callBody = fc.record(
  {
    model: fc.oneof(
      fc.constantFrom("gpt-4o-mini", "gpt-4o", "text-embedding-3-small", "dall-e-3", "tts-1", "rerank-english-v3.0", "no-such-model"),
      hostileValue,
    ),
    messages: fc.oneof({ weight: 4, arbitrary: fc.array(message, { minLength: 1, maxLength: 4 }) }, hostileValue),
    prompt: fc.oneof(fc.string({ maxLength: 100 }), hostileValue),
    input: fc.oneof(fc.string({ maxLength: 100 }), fc.array(fc.string({ maxLength: 20 }), { maxLength: 4 }), hostileValue),
    stream: fc.oneof({ weight: 3, arbitrary: fc.boolean() }, hostileValue),
    stream_options: fc.oneof(fc.record({ include_usage: fc.oneof(fc.boolean(), hostileValue) }), hostileValue),
    max_tokens: hostileValue,
    max_completion_tokens: hostileValue,
    max_output_tokens: hostileValue,
    n: hostileValue,
    temperature: hostileValue,
    tools: hostileValue,
    response_format: hostileValue,
    size: fc.oneof(fc.constantFrom("1024x1024", "256x256", "1x99999"), hostileValue),
    quality: hostileValue,
    query: hostileValue,
    documents: hostileValue,
    voice: hostileValue,
    contents: hostileValue,
    system: hostileValue,
    // Drawing and music tasks (/mj, /suno) and Gemini's countTokens.
    action: fc.oneof(fc.constantFrom("UPSCALE", "VARIATION", "REROLL", "ZOOM"), hostileValue),
    taskId: hostileValue,
    customId: fc.oneof(fc.constantFrom("MJ::JOB::upsample::1::abc", "MJ::Outpaint::50::1::abc"), hostileValue),
    base64Array: fc.oneof(fc.array(fc.constantFrom("data:image/png;base64,iVBORw0KGgo=", ""), { maxLength: 3 }), hostileValue),
    tags: hostileValue,
    mv: hostileValue,
    title: hostileValue,
    continue_clip_id: hostileValue,
    generateContentRequest: hostileValue,
  },
  { requiredKeys: [] },
);

const text = fc.string({ minLength: 1, maxLength: 120 });
const geminiBody = fc.record({
  contents: fc.array(fc.record({ role: fc.constant("user"), parts: fc.array(fc.record({ text }), { minLength: 1, maxLength: 2 }) }), {
    minLength: 1,
    maxLength: 2,
  }),
  tools: fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    fc.constant([{ functionDeclarations: [{ name: "weather", parameters: { type: "OBJECT", properties: {} } }] }]),
    fc.array(fc.record({ functionDeclarations: fc.array(hostileValue, { maxLength: 2 }) }), { maxLength: 2 }),
  ),
});
const chatMessages = fc.array(fc.record({ role: fc.constantFrom("user", "system"), content: text }), { minLength: 1, maxLength: 3 });

/** A valid body for each endpoint, so that most inputs get past validation and reach billing. */
const validBodies: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  "/v1/chat/completions": fc.record({
    model: fc.constant("gpt-4o-mini"),
    messages: chatMessages,
    stream: fc.boolean(),
    max_tokens: fc.integer({ min: 1, max: 500 }),
  }),
  "/v1/completions": fc.record({ model: fc.constant("gpt-4o-mini"), prompt: text, stream: fc.boolean() }),
  "/v1/embeddings": fc.record({
    model: fc.constant("text-embedding-3-small"),
    input: fc.oneof(text, fc.array(text, { minLength: 1, maxLength: 3 })),
  }),
  "/v1/engines/text-embedding-3-small/embeddings": fc.record({ input: text }),
  "/v1/images/generations": fc.record({ model: fc.constant("dall-e-3"), prompt: text, size: fc.constantFrom("1024x1024", "1792x1024") }),
  "/v1/moderations": fc.record({ input: text }),
  "/v1/rerank": fc.record({
    model: fc.constant("rerank-english-v3.0"),
    query: text,
    documents: fc.array(text, { minLength: 1, maxLength: 3 }),
  }),
  "/v1/audio/speech": fc.record({ model: fc.constant("tts-1"), input: text, voice: fc.constant("alloy") }),
  "/v1/responses": fc.record({ model: fc.constant("gpt-4o-mini"), input: text, stream: fc.boolean() }),
  "/v1/messages": fc.record({
    model: fc.constant("gpt-4o-mini"),
    messages: fc.array(fc.record({ role: fc.constant("user"), content: text }), { minLength: 1, maxLength: 2 }),
    max_tokens: fc.integer({ min: 1, max: 300 }),
    stream: fc.boolean(),
  }),
  "/v1beta/models/gpt-4o-mini:generateContent": geminiBody,
  "/v1beta/models/gpt-4o-mini:streamGenerateContent?alt=sse": geminiBody,
  "/v1beta/models/gpt-4o-mini:countTokens": geminiBody,
  "/v1/messages/count_tokens": fc.record({
    model: fc.constant("gpt-4o-mini"),
    messages: fc.array(fc.record({ role: fc.constant("user"), content: text }), { minLength: 1, maxLength: 2 }),
  }),
  "/mj/submit/imagine": fc.record({ prompt: text }),
  "/mj/submit/blend": fc.record({ base64Array: fc.constant(["data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,iVBORw0KGgo="]) }),
  "/mj/submit/describe": fc.record({ base64: fc.constant("data:image/png;base64,iVBORw0KGgo=") }),
  "/mj/submit/change": fc.record({ action: fc.constantFrom("UPSCALE", "VARIATION"), index: fc.integer({ min: 1, max: 4 }), taskId: text }),
  "/mj/submit/action": fc.record({ customId: fc.constant("MJ::JOB::upsample::1::abc"), taskId: text }),
  "/suno/submit/music": fc.record({ prompt: text, tags: text, title: text }),
  "/suno/submit/lyrics": fc.record({ prompt: text }),
};

const fieldNames = [
  "model",
  "messages",
  "prompt",
  "input",
  "stream",
  "stream_options",
  "max_tokens",
  "max_completion_tokens",
  "max_output_tokens",
  "n",
  "temperature",
  "tools",
  "response_format",
  "size",
  "quality",
  "query",
  "documents",
  "voice",
  "contents",
  "system",
  "action",
  "taskId",
  "customId",
  "base64Array",
  "tags",
  "mv",
  "title",
  "continue_clip_id",
  "generateContentRequest",
];

/** A body for `path`: valid, valid with one or two fields made hostile, anything call-shaped, or any JSON. */
export function jsonBodyFor(path: string): fc.Arbitrary<unknown> {
  const valid = validBodies[path] ?? fc.constant({});
  const spoiled = fc
    .tuple(valid, fc.dictionary(fc.constantFrom(...fieldNames), hostileValue, { minKeys: 1, maxKeys: 2 }))
    .map(([body, changes]) => ({ ...body, ...changes }));
  return fc.oneof(
    { weight: 3, arbitrary: valid },
    { weight: 4, arbitrary: spoiled },
    { weight: 2, arbitrary: callBody },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  );
}

export const relayPaths = Object.keys(validBodies);

const headerName = fc.stringMatching(/^[a-z][a-z0-9-]{0,20}$/);
/** Visible ASCII and spaces: what a header value can carry. */
const headerValue = fc.stringMatching(/^[\x20-\x7e]{0,80}$/);

/** Headers of a call: a content type, a credential (one of `credentials`, or a broken one), extras. */
export function headerArbitrary(credentials: string[]): fc.Arbitrary<Record<string, string>> {
  return fc
    .record({
      contentType: fc.oneof(
        { weight: 5, arbitrary: fc.constant("application/json") },
        fc.constantFrom(
          "text/plain",
          "multipart/form-data",
          "multipart/form-data; boundary=x",
          "application/x-www-form-urlencoded",
          "application/json; charset=utf-16",
          "",
          "*/*",
        ),
        headerValue,
      ),
      credential: fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...credentials) },
        fc.constantFrom(
          "",
          "Bearer ",
          "Bearer sk-",
          "Basic c2s6c2s=",
          `${credentials[0]}-999999`,
          `${credentials[0]}-0`,
          `${credentials[0]}-abc`,
          "Bearer sk-" + "a".repeat(2000),
        ),
        headerValue,
      ),
      extra: fc.dictionary(headerName, headerValue, { maxKeys: 3 }),
    })
    .map(({ contentType, credential, extra }) => {
      const headers: Record<string, string> = { ...extra };
      if (contentType) headers["content-type"] = contentType;
      if (credential) headers.authorization = credential;
      return headers;
    });
}
