// Ollama (type 4): its OpenAI-compatible API under /v1 (chat, completions, embeddings), no key
// needed but sent when given. Its OpenAI compatibility takes images as base64 only (Ollama's
// docs/openai.md: "Base64 encoded image", image URLs not supported): links are downloaded first.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const ollamaAdaptor = createCompatibleAdaptor({
  type: ChannelType.Ollama,
  name: "Ollama",
  owner: "ollama",
  defaultBaseUrl: "http://localhost:11434",
  // Its chat reference documents max_tokens, not max_completion_tokens.
  maxTokensOnly: true,
  streamUsage: true,
  inlineImages: true,
});
