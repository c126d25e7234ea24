// The /v1 routes in the API reference. Their bodies are OpenAI's (the relay forwards the
// client's own bytes and reads only what it needs), so they are described in words with a link
// to OpenAI's reference rather than re-specified here.
import { operation as op, type OperationCatalogue } from "./operations.ts";

const forwarded = (reads: string) => `OpenAI's request body, forwarded as sent; the relay reads ${reads}`;
const multipart = (reads: string) => `multipart/form-data as OpenAI defines it; the relay reads ${reads}`;

export const relayOperations: OperationCatalogue = {
  "POST /v1/chat/completions": op("Relay", "relay", "Chat completion, whole or streamed (server-sent events)", {
    bodyNote: forwarded("model, messages (to count the prompt), stream, stream_options, max_tokens / max_completion_tokens"),
  }),
  "POST /v1/messages": op("Relay", "relay", "Anthropic Messages API (Claude clients): passed through to Claude-speaking channels, converted for the others; errors in Anthropic's shape", {
    bodyNote: "Anthropic's request body; the relay reads model, max_tokens, stream, system and messages (auth: x-api-key or Bearer)",
  }),
  "POST /v1/messages/count_tokens": op("Relay", "relay", "Anthropic token counting, counted locally and free", { bodyNote: "Anthropic's count_tokens body" }),
  "POST /v1/responses": op("Relay", "relay", "OpenAI Responses API, whole or streamed: passed through to OpenAI and Azure channels, converted for the others (stateless)", {
    bodyNote: forwarded("model, input, instructions, tools, stream, max_output_tokens, reasoning"),
  }),
  "POST /v1/completions": op("Relay", "relay", "Text completion (legacy)", { bodyNote: forwarded("model, prompt, stream, max_tokens") }),
  "POST /v1/embeddings": op("Relay", "relay", "Embeddings", { bodyNote: forwarded("model and input") }),
  "POST /v1/engines/:model/embeddings": op("Relay", "relay", "Embeddings, the model named by the path (legacy)", { bodyNote: forwarded("input") }),
  "POST /v1/moderations": op("Relay", "relay", "Moderation", { bodyNote: forwarded("model (default text-moderation-stable) and input") }),
  "POST /v1/rerank": op("Relay", "relay", "Rerank (Cohere and Jina style)", { bodyNote: forwarded("model, query and documents") }),
  "POST /v1/images/generations": op("Relay", "relay", "Image generation; priced per image by size and quality", { bodyNote: forwarded("model (default dall-e-2), n, size, quality") }),
  "POST /v1/images/edits": op("Relay", "relay", "Image edit", { bodyNote: multipart("model (default dall-e-2), n, size") }),
  "POST /v1/images/variations": op("Relay", "relay", "Image variations: not implemented (501, as new-api)"),
  "POST /v1/audio/speech": op("Relay", "relay", "Text to speech; priced by the input's characters", { bodyNote: forwarded("model (default tts-1) and input") }),
  "POST /v1/audio/transcriptions": op("Relay", "relay", "Speech to text", { bodyNote: multipart("model (default whisper-1) and file") }),
  "POST /v1/audio/translations": op("Relay", "relay", "Speech to English text", { bodyNote: multipart("model (default whisper-1) and file") }),
  "GET /v1/models": op("Relay", "relay", "Models the token may call"),
  "GET /v1/models/*": op("Relay", "relay", "One model the token may call (404 for others)"),
  "DELETE /v1/models/*": op("Relay", "relay", "Deleting a fine-tuned model: not implemented (501)"),
  "ALL /v1/files*": op("Relay", "relay", "OpenAI files: not implemented (501)"),
  "ALL /v1/fine-tunes*": op("Relay", "relay", "OpenAI fine-tunes: not implemented (501)"),
  "GET /v1/dashboard/billing/subscription": op("Relay", "relay", "OpenAI-style billing: the token's (or user's) limit, in dollars or quota"),
  "GET /v1/dashboard/billing/usage": op("Relay", "relay", "OpenAI-style billing: the token's (or user's) usage"),
  "OPTIONS /v1/*": op("Relay", "public", "CORS preflight"),
};
