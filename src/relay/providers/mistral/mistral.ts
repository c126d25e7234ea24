// Mistral (type 42): OpenAI-style, but the API refuses fields it does not know ("Extra inputs
// are not permitted"), so only the fields it documents are sent. Its output limit is max_tokens
// (Mistral's chat reference), so max_completion_tokens is sent under that name; response_format
// (json_object, json_schema) and parallel_tool_calls are its own; reasoning_effort, service_tier
// and other modalities have no Mistral field and are refused.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

const mistralFields = new Set([
  "model",
  "messages",
  "prompt",
  "suffix",
  "input",
  "stream",
  "temperature",
  "top_p",
  "max_tokens",
  "min_tokens",
  "stop",
  "random_seed",
  "seed",
  "response_format",
  "tools",
  "tool_choice",
  "presence_penalty",
  "frequency_penalty",
  "n",
  "safe_prompt",
  "prediction",
  "parallel_tool_calls",
  "encoding_format",
  "output_dtype",
  "output_dimension",
]);

export const mistralAdaptor = createCompatibleAdaptor({
  type: ChannelType.Mistral,
  name: "Mistral",
  owner: "mistralai",
  defaultBaseUrl: "https://api.mistral.ai",
  streamUsage: false,
  allowedFields: mistralFields,
  maxTokensOnly: true,
  fieldSupport: { outputLimit: true, jsonObject: true, jsonSchema: true, singleToolCall: "mapped" },
});
