// Ollama (type 4): its OpenAI-compatible API under /v1 (chat, completions, embeddings), no key
// needed but sent when given.
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const ollamaAdaptor = createCompatibleAdaptor({
  kind: 4,
  name: "Ollama",
  owner: "ollama",
  defaultBaseUrl: "http://localhost:11434",
  streamUsage: true,
});
