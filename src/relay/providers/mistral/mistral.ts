// Mistral (type 42): OpenAI-style, but the API refuses fields it does not know ("Extra inputs
// are not permitted"), so only the fields it documents are sent.
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

const mistralFields = new Set([
  "model", "messages", "prompt", "suffix", "input", "stream", "temperature", "top_p", "max_tokens", "min_tokens", "stop",
  "random_seed", "seed", "response_format", "tools", "tool_choice", "presence_penalty", "frequency_penalty", "n",
  "safe_prompt", "prediction", "parallel_tool_calls", "encoding_format", "output_dtype", "output_dimension",
]);

export const mistralAdaptor = createCompatibleAdaptor({
  kind: 42,
  name: "Mistral",
  owner: "mistralai",
  defaultBaseUrl: "https://api.mistral.ai",
  streamUsage: false,
  allowedFields: mistralFields,
});
