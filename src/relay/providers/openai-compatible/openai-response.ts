// A successful non-streamed OpenAI-style answer: passed to the client byte for byte, with the
// usage read on the way (quickly when it can be found without parsing everything).
import type { Bytes, ConvertedResponse, GeneratedOutput, RelayCall } from "../adaptor.ts";
import { errorOfBody } from "./openai-errors.ts";
import { findUsageQuickly, outputOfBody, usageOfBody } from "./openai-usage.ts";

const decoder = new TextDecoder();

function parseOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export function convertOpenAIResponse(call: RelayCall, body: Bytes, contentType: string): ConvertedResponse {
  const isJson = contentType.includes("json");
  if (!isJson) {
    // Audio bytes, or a transcript in text/srt/vtt form: nothing to read usage from.
    return {
      body,
      contentType,
      usage: null,
      output: () => ({ text: contentType.startsWith("text/") ? decoder.decode(body) : "", toolCalls: 0 }),
    };
  }
  const text = decoder.decode(body);
  let parsed: unknown;
  const parse = () => (parsed ??= parseOrNull(text));
  let usage = findUsageQuickly(text);
  if (usage === undefined) usage = usageOfBody(parse());
  // Some vendors answer 200 with an error object; only an answer without usage can be one.
  const error = usage === null && text.includes('"error"') ? errorOfBody(parse()) : undefined;
  return {
    error,
    body,
    contentType,
    usage,
    output: (): GeneratedOutput =>
      call.endpoint === "chat" || call.endpoint === "completions" || call.endpoint === "transcription" || call.endpoint === "translation"
        ? outputOfBody(parse())
        : { text: "", toolCalls: 0 },
  };
}
