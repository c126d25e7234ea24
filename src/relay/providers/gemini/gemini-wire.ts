// Google's Gemini API on the wire (API reference: generateContent, streamGenerateContent,
// Content, Part, Tool, GenerationConfig, UsageMetadata, models.list, embedContent, errors; the
// official @google/genai types agree): the request body, the answer (each stream event is one
// answer holding the new parts), and the google.rpc.Status error body. Both directions use these
// types: the adaptors here (OpenAI chat to Gemini and Gemini's answers back) and inbound/gemini/
// (a Gemini client's request to chat and chat answers back). Google's REST APIs read every field
// under its lowerCamelCase or snake_case name (inbound/gemini/gemini-fields.ts reads both); the
// types name the camelCase one. Bodies from outside are read as Unverified<...> until checked.

export type GeminiRole = "user" | "model";

export type GeminiBlob = { mimeType: string; data: string };
export type GeminiFileData = { mimeType?: string; fileUri: string };
/** A google.protobuf.Struct: any JSON object. */
export type GeminiStruct = { [key: string]: unknown };

export type GeminiFunctionCall = { id?: string; name: string; args?: GeminiStruct };
export type GeminiFunctionResponse = { id?: string; name: string; response: GeminiStruct };

/** One part of a content: exactly one of the data fields, with its thought flags. */
export type GeminiPart = {
  text?: string;
  /** The text is a thought summary. */
  thought?: boolean;
  /** Opaque state the model wants back on the next turn (on a function call, or the last part). */
  thoughtSignature?: string;
  inlineData?: GeminiBlob;
  fileData?: GeminiFileData;
  functionCall?: GeminiFunctionCall;
  functionResponse?: GeminiFunctionResponse;
  /** Code the model ran itself, and its result: records, nothing to answer. */
  executableCode?: { language: string; code: string };
  codeExecutionResult?: { outcome: string; output?: string };
};

export type GeminiContent = { role: GeminiRole; parts: GeminiPart[] };

/** OpenAPI 3.0's Schema subset: types in upper case ("OBJECT") or lower, nullable, no $refs. */
export type GeminiSchema = { readonly [key: string]: unknown };

export type GeminiFunctionDeclaration = {
  name: string;
  description?: string;
  parameters?: GeminiSchema;
  /** The same in JSON Schema, as an alternative to `parameters`. */
  parametersJsonSchema?: unknown;
};

/** A tool: function declarations, or one of Google's own (Search grounding, code execution...). */
export type GeminiTool = {
  functionDeclarations?: GeminiFunctionDeclaration[];
  googleSearch?: Record<string, never>;
  googleSearchRetrieval?: unknown;
  codeExecution?: Record<string, never>;
  urlContext?: Record<string, never>;
};

export type GeminiFunctionCallingMode = "AUTO" | "ANY" | "NONE" | "VALIDATED";
export type GeminiToolConfig = { functionCallingConfig: { mode: GeminiFunctionCallingMode; allowedFunctionNames?: string[] } };

export type GeminiThinkingConfig = {
  includeThoughts?: boolean;
  /** Gemini 2.x: a token budget (0 off, -1 dynamic). */
  thinkingBudget?: number;
  /** Gemini 3: a level. */
  thinkingLevel?: "THINKING_LEVEL_UNSPECIFIED" | "MINIMAL" | "LOW" | "MEDIUM" | "HIGH" | string;
};

export type GeminiGenerationConfig = {
  temperature?: number;
  topP?: number;
  topK?: number;
  maxOutputTokens?: number;
  candidateCount?: number;
  stopSequences?: string[];
  presencePenalty?: number;
  frequencyPenalty?: number;
  seed?: number;
  responseMimeType?: string;
  responseSchema?: GeminiSchema;
  responseJsonSchema?: unknown;
  responseModalities?: string[];
  thinkingConfig?: GeminiThinkingConfig;
};

export type GeminiSafetySetting = { category: string; threshold: string };

/** POST /{version}/models/{model}:generateContent (and :streamGenerateContent?alt=sse). */
export type GeminiRequest = {
  contents: GeminiContent[];
  systemInstruction?: { role?: string; parts: GeminiPart[] } | string;
  tools?: GeminiTool[];
  toolConfig?: GeminiToolConfig;
  safetySettings?: GeminiSafetySetting[];
  generationConfig?: GeminiGenerationConfig;
  /** A context cache Google keeps: `cachedContents/{id}`. */
  cachedContent?: string;
};

export type GeminiFinishReason =
  | "FINISH_REASON_UNSPECIFIED"
  | "STOP"
  | "MAX_TOKENS"
  | "SAFETY"
  | "RECITATION"
  | "LANGUAGE"
  | "OTHER"
  | "BLOCKLIST"
  | "PROHIBITED_CONTENT"
  | "SPII"
  | "MALFORMED_FUNCTION_CALL"
  | "IMAGE_SAFETY"
  | "IMAGE_PROHIBITED_CONTENT"
  | "IMAGE_RECITATION"
  | "UNEXPECTED_TOOL_CALL"
  | "MODEL_ARMOR";

export type GeminiCandidate = {
  content?: { role?: GeminiRole; parts?: GeminiPart[] };
  finishReason?: GeminiFinishReason;
  index?: number;
};

/** Thoughts are counted apart from the candidates; tool-use prompt tokens apart from the prompt. */
export type GeminiUsageMetadata = {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  thoughtsTokenCount?: number;
  toolUsePromptTokenCount?: number;
  cachedContentTokenCount?: number;
  totalTokenCount?: number;
};

export type GeminiPromptFeedback = { blockReason?: string; blockReasonMessage?: string };

/** A whole answer, and each event of a stream. */
export type GeminiResponse = {
  candidates?: GeminiCandidate[];
  promptFeedback?: GeminiPromptFeedback;
  usageMetadata?: GeminiUsageMetadata;
  modelVersion?: string;
  responseId?: string;
};

/** google.rpc.Status, as every Google API answers an error (a one-element list in a JSON-array stream). */
export type GeminiErrorBody = {
  error: {
    code: number;
    message: string;
    /** The google.rpc.Code name: INVALID_ARGUMENT, UNAUTHENTICATED, RESOURCE_EXHAUSTED... */
    status: string;
    details?: { "@type"?: string; reason?: string; [key: string]: unknown }[];
  };
};

/** POST :embedContent, and each request of :batchEmbedContents (which names the model). */
export type GeminiEmbedRequest = { model?: string; content: { parts: GeminiPart[] }; outputDimensionality?: number };
export type GeminiBatchEmbedRequest = { requests: GeminiEmbedRequest[] };
export type GeminiEmbedResponse = {
  embedding?: { values: number[] };
  embeddings?: { values: number[] }[];
  usageMetadata?: GeminiUsageMetadata;
};

/** GET /{version}/models (and the gateway's own /v1beta/models answer). */
export type GeminiModel = {
  name: string;
  baseModelId?: string;
  version?: string;
  displayName?: string;
  description?: string;
  supportedGenerationMethods?: string[];
};
export type GeminiModelList = { models: GeminiModel[]; nextPageToken?: string };
