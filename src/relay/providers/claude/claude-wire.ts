// Anthropic's Messages API on the wire (API reference: Messages, Streaming messages, Errors; the
// official SDK's types agree): the request body, content blocks, tools, the answer, its stream
// events and the error body. Both directions use these types: the adaptors here (OpenAI chat to
// Claude and Claude's answers back) and inbound/claude/ (a Claude client's request to chat and
// chat answers back). Bodies from outside are read as Unverified<...> until checked.

export type ClaudeCacheControl = { type: "ephemeral"; ttl?: "5m" | "1h" };

export type ClaudeBase64Source = { type: "base64"; media_type: string; data: string };
export type ClaudeUrlSource = { type: "url"; url: string };
export type ClaudeTextSource = { type: "text"; media_type: "text/plain"; data: string };
export type ClaudeContentSource = { type: "content"; content: string | ClaudeTextBlock[] };
export type ClaudeImageSource = ClaudeBase64Source | ClaudeUrlSource;
export type ClaudeDocumentSource = ClaudeBase64Source | ClaudeUrlSource | ClaudeTextSource | ClaudeContentSource;

export type ClaudeTextBlock = { type: "text"; text: string; cache_control?: ClaudeCacheControl };
export type ClaudeImageBlock = { type: "image"; source: ClaudeImageSource; cache_control?: ClaudeCacheControl };
export type ClaudeDocumentBlock = { type: "document"; source: ClaudeDocumentSource; title?: string; cache_control?: ClaudeCacheControl };
export type ClaudeToolUseBlock = { type: "tool_use"; id: string; name: string; input: unknown };
/** A tool a tool search loaded, inside a tool_result. */
export type ClaudeToolReferenceBlock = { type: "tool_reference"; tool_name: string };
export type ClaudeToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content?: string | (ClaudeTextBlock | ClaudeImageBlock | ClaudeDocumentBlock | ClaudeToolReferenceBlock)[];
  is_error?: boolean;
  cache_control?: ClaudeCacheControl;
};
export type ClaudeThinkingBlock = { type: "thinking"; thinking: string; signature: string };
export type ClaudeRedactedThinkingBlock = { type: "redacted_thinking"; data: string };
/** A tool Anthropic ran (web search...): its call; its results come as `<name>_tool_result` blocks. */
export type ClaudeServerToolUseBlock = { type: "server_tool_use"; id: string; name: string; input: unknown };

export type ClaudeContentBlock =
  | ClaudeTextBlock
  | ClaudeImageBlock
  | ClaudeDocumentBlock
  | ClaudeToolUseBlock
  | ClaudeToolResultBlock
  | ClaudeThinkingBlock
  | ClaudeRedactedThinkingBlock
  | ClaudeServerToolUseBlock;

export type ClaudeMessageParam = { role: "user" | "assistant"; content: string | ClaudeContentBlock[] };

/** A tool the client runs (`type` absent or "custom"). */
export type ClaudeCustomTool = {
  type?: "custom";
  name: string;
  description?: string;
  /** A JSON Schema; Anthropic requires it to describe an object. */
  input_schema: { readonly [key: string]: unknown };
  cache_control?: ClaudeCacheControl;
  strict?: boolean;
  /** Offered only once a tool search loaded it. */
  defer_loading?: boolean;
};

/** Anthropic's web search server tool (web_search_20250305, and later dated versions). */
export type ClaudeWebSearchTool = {
  type: `web_search_${string}`;
  name: "web_search";
  max_uses?: number;
  allowed_domains?: string[];
  blocked_domains?: string[];
  user_location?: { type: "approximate"; city?: string; region?: string; country?: string; timezone?: string };
};

/** Any other server or Anthropic-defined tool (web fetch, code execution, bash, text editor, ...). */
export type ClaudeOtherTool = { type: string; name: string };

export type ClaudeTool = ClaudeCustomTool | ClaudeWebSearchTool | ClaudeOtherTool;

export type ClaudeToolChoice =
  | { type: "auto"; disable_parallel_tool_use?: boolean }
  | { type: "any"; disable_parallel_tool_use?: boolean }
  | { type: "tool"; name: string; disable_parallel_tool_use?: boolean }
  | { type: "none" };

export type ClaudeThinkingConfig = { type: "enabled"; budget_tokens: number } | { type: "disabled" } | { type: "adaptive" };

export type ClaudeEffort = "low" | "medium" | "high" | "xhigh" | "max";

/** POST /v1/messages. */
export type ClaudeRequest = {
  model: string;
  max_tokens: number;
  messages: ClaudeMessageParam[];
  system?: string | ClaudeTextBlock[];
  metadata?: { user_id?: string };
  stop_sequences?: string[];
  stream?: boolean;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  tools?: ClaudeTool[];
  tool_choice?: ClaudeToolChoice;
  thinking?: ClaudeThinkingConfig;
  output_config?: { effort?: ClaudeEffort };
};

export type ClaudeStopReason =
  | "end_turn"
  | "max_tokens"
  | "stop_sequence"
  | "tool_use"
  | "pause_turn"
  | "refusal"
  | "model_context_window_exceeded";

/** Input is counted in three parts: not cached, written to the cache, read from it. */
export type ClaudeUsage = {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
};

/** A whole answer (and message_start's `message`, with empty content). */
export type ClaudeMessage = {
  id: string;
  type: "message";
  role: "assistant";
  model: string;
  content: ClaudeContentBlock[];
  stop_reason: ClaudeStopReason | null;
  stop_sequence: string | null;
  usage: ClaudeUsage;
};

export type ClaudeDelta =
  | { type: "text_delta"; text: string }
  | { type: "input_json_delta"; partial_json: string }
  | { type: "thinking_delta"; thinking: string }
  | { type: "signature_delta"; signature: string }
  | { type: "citations_delta"; citation: unknown };

export type ClaudeErrorType =
  | "invalid_request_error"
  | "authentication_error"
  | "billing_error"
  | "permission_error"
  | "not_found_error"
  | "request_too_large"
  | "rate_limit_error"
  | "timeout_error"
  | "api_error"
  | "overloaded_error";

export type ClaudeError = { type: ClaudeErrorType; message: string };

/** An error answer, and the stream's `error` event. */
export type ClaudeErrorBody = { type: "error"; error: ClaudeError; request_id?: string };

/** The events of a streamed answer, each framed as `event: <type>` with the JSON as data. */
export type ClaudeStreamEvent =
  | { type: "message_start"; message: ClaudeMessage }
  | { type: "content_block_start"; index: number; content_block: ClaudeContentBlock }
  | { type: "content_block_delta"; index: number; delta: ClaudeDelta }
  | { type: "content_block_stop"; index: number }
  | {
      type: "message_delta";
      delta: { stop_reason: ClaudeStopReason | null; stop_sequence: string | null };
      /** Running totals: output_tokens is the count so far, not an increment. */
      usage: Partial<ClaudeUsage>;
    }
  | { type: "message_stop" }
  | { type: "ping" }
  | ClaudeErrorBody;

/** GET /v1/models: one page of the models the key may use. */
export type ClaudeModelList = {
  data: { type: "model"; id: string; display_name: string; created_at: string }[];
  has_more: boolean;
  first_id: string | null;
  last_id: string | null;
};
