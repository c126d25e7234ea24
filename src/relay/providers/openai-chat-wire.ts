// OpenAI's chat completions wire format, the relay's common language: every inbound format is
// converted to it and every adaptor that does not speak a client's format is handed it. One set
// of types for the whole relay (OpenAI's API reference, Create chat completion), with the two
// extensions the relay carries across formats (inbound/reasoning-state.ts): reasoning_content,
// and extra_content holding the vendor state the next turn must give back. A client's body is
// read as Unverified<ChatRequest> (unverified.ts) until checked.
import type { ThinkingBlock } from "../inbound/reasoning-state.ts";

export type ChatRole = "system" | "developer" | "user" | "assistant" | "tool" | "function";

export type ChatTextPart = { type: "text"; text: string; cache_control?: unknown };
export type ChatImagePart = { type: "image_url"; image_url: { url: string; detail?: "auto" | "low" | "high" } };
export type ChatAudioPart = { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" } };
export type ChatFilePart = { type: "file"; file: { filename?: string; file_data?: string; file_id?: string } };
export type ChatContentPart = ChatTextPart | ChatImagePart | ChatAudioPart | ChatFilePart;

/** Vendor state on a message: Claude's signed thinking, a signature Gemini put on a text part. */
export type ChatExtraContent = {
  anthropic?: { thinking_blocks: ThinkingBlock[] };
  google?: { thought_signature?: string };
};

export type ChatToolCall = {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  /** Gemini's thought signature of this call (Google's own OpenAI convention). */
  extra_content?: { google: { thought_signature: string } };
};

/** One message of a chat request's conversation (or an answer's message). */
export type ChatMessage = {
  role: ChatRole;
  content: string | ChatContentPart[] | null;
  name?: string;
  tool_calls?: ChatToolCall[];
  tool_call_id?: string;
  /** Deprecated by OpenAI for tool_calls; old clients still send it. */
  function_call?: ChatToolCall["function"];
  reasoning_content?: string;
  extra_content?: ChatExtraContent;
};

export type ChatFunction = { name: string; description?: string; parameters?: unknown; strict?: boolean };
export type ChatTool = { type: "function"; function: ChatFunction };
export type ChatToolChoice = "auto" | "none" | "required" | { type: "function"; function: { name: string } };

export type ChatResponseFormat =
  | { type: "text" }
  | { type: "json_object" }
  | { type: "json_schema"; json_schema: { name: string; description?: string; schema?: unknown; strict?: boolean } };

export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  max_tokens?: number;
  max_completion_tokens?: number;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  n?: number;
  seed?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop?: string | string[];
  user?: string;
  tools?: ChatTool[];
  tool_choice?: ChatToolChoice;
  parallel_tool_calls?: boolean;
  reasoning_effort?: string;
  response_format?: ChatResponseFormat;
  modalities?: string[];
  verbosity?: "low" | "medium" | "high";
  stream?: boolean;
  stream_options?: { include_usage: boolean };
};

export type ChatUsage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number; cache_creation_tokens?: number };
  completion_tokens_details?: { reasoning_tokens: number };
};

export type ChatFinishReason = "stop" | "length" | "tool_calls" | "content_filter" | "function_call";

export type ChatCompletion = {
  id: string;
  object: "chat.completion";
  created: number;
  model: string;
  choices: { index: number; message: ChatMessage; finish_reason: ChatFinishReason | null }[];
  usage?: ChatUsage;
};

/** A stream chunk's delta: pieces of a message, tool calls by index with their id and name once. */
export type ChatDelta = {
  role?: "assistant";
  content?: string;
  reasoning_content?: string;
  tool_calls?: {
    index: number;
    id?: string;
    type?: "function";
    function?: { name?: string; arguments?: string };
    extra_content?: ChatToolCall["extra_content"];
  }[];
  extra_content?: ChatExtraContent;
};

export type ChatCompletionChunk = {
  id: string;
  object: "chat.completion.chunk";
  created: number;
  model: string;
  choices: { index: number; delta: ChatDelta; finish_reason: ChatFinishReason | null }[];
  usage?: ChatUsage;
};
