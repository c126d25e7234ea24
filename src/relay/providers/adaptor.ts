// The provider adaptor contract: what the relay pipeline knows about an upstream kind. An adaptor
// is data plus pure functions (no fetch, no store, no clock): it turns one client call into an
// upstream request, and the upstream's answer (whole, streamed, or an error) back into what the
// client asked for, reporting usage on the way. The pipeline never asks which kind it holds.
//
// Inbound calls arrive in the OpenAI wire format today (`format: "openai"`); native inbound
// formats (Claude /v1/messages, Gemini /v1beta) add members to InboundFormat and adaptors say
// which formats they carry natively, so a Claude call to a Claude channel needs no conversion.

/** The relay endpoints (the OpenAI paths a client calls). */
export type EndpointKind =
  | "chat"
  | "completions"
  | "embeddings"
  | "moderations"
  | "rerank"
  | "image-generation"
  | "image-edit"
  | "speech"
  | "transcription"
  | "translation";

export type InboundFormat = "openai";

/** Bytes as fetch and Response take them. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** The part of a channel's `setting` JSON the relay honours (new-api docs/channel/other_setting.md). */
export type ChannelSetting = {
  /** http(s):// or socks5:// proxy for this channel's upstream calls. */
  proxy?: string;
};

/** What an adaptor needs to reach one channel. Holds the key: never leaves the server. */
export type UpstreamTarget = {
  id: number;
  type: number;
  key: string;
  /** The channel's base URL override, without a trailing slash; empty = the kind's default. */
  baseUrl: string;
  /** Per-kind extra: Azure's api-version, for example. */
  other: string;
  organization: string;
  setting: ChannelSetting;
};

/** One client call after parsing: what every adaptor converts from. */
export type RelayCall = {
  endpoint: EndpointKind;
  format: InboundFormat;
  /** The model the client asked for (prices and logs use it). */
  model: string;
  /** The model sent upstream, after the channel's model_mapping. */
  upstreamModel: string;
  stream: boolean;
  /** The client asked for the final usage chunk (stream_options.include_usage). */
  clientWantsUsage: boolean;
  /** The parsed JSON body, or null for multipart bodies. */
  json: Record<string, unknown> | null;
  /** The parsed multipart form, or null for JSON bodies. */
  form: FormData | null;
  /** The body exactly as the client sent it (forwarded untouched when nothing changes). */
  rawBody: Bytes;
  contentType: string;
  /** Prompt tokens counted locally: the fallback when the upstream reports no usage. */
  promptTokens: number;
};

export type UpstreamRequest = {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: BodyInit;
};

/** Token usage, normalised: integers, never NaN. */
export type Usage = {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  /** Reasoning tokens inside completion_tokens, when the upstream says. */
  reasoning_tokens?: number;
  /** Prompt tokens served from the provider's cache, when the upstream says. */
  cached_tokens?: number;
};

/** An upstream answer that was not a success, reduced to what the client and the rules need. */
export type UpstreamErrorDetails = {
  message: string;
  type: string;
  code: string | number | null;
  param: string | null;
};

/** A successful non-streamed answer converted for the client. */
export type ConvertedResponse = {
  body: Bytes | string;
  contentType: string;
  /** Usage reported by the upstream; null when it gave none. */
  usage: Usage | null;
  /** The generated text and tool-call count, for counting completion tokens locally. */
  output(): GeneratedOutput;
  /** Set when a 200 answer was in fact an error object (some vendors do that). */
  error?: UpstreamErrorDetails;
};

export type GeneratedOutput = { text: string; toolCalls: number };

/** One event of an upstream server-sent-event stream. */
export type SseEvent = {
  /** The event exactly as received, ending with a blank line. */
  raw: string;
  /** The `event:` field, when present. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
};

/** Converts one upstream stream for the client; its state lives in the closure. */
export interface StreamConverter {
  /** One upstream event in; the SSE texts to send to the client out (possibly none). */
  push(event: SseEvent): string[];
  /** The upstream ended normally; the closing SSE texts (a usage chunk, [DONE]) to send. */
  finish(): string[];
  /** True once the closing texts were produced: nothing more will be sent to the client. */
  finished(): boolean;
  /** Usage reported by the upstream so far, or null. */
  usage(): Usage | null;
  /** What was generated so far, for local counting when the upstream reports no usage. */
  output(): GeneratedOutput;
}

/** Counts completion tokens locally (given to stream converters that must synthesise usage). */
export type CompletionCounter = (output: GeneratedOutput) => number;

export interface ProviderAdaptor {
  /** Channel type number (spec §3 channel type catalogue). */
  readonly kind: number;
  readonly name: string;
  /** `owned_by` of the kind's models in /v1/models. */
  readonly owner: string;
  readonly defaultBaseUrl: string;
  /** Models the kind is known to serve (channel forms, /api/models, owned_by). */
  readonly defaultModels: readonly string[];

  /** URL, headers and body of the upstream request for one call. */
  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest;
  /** A successful non-streamed answer, as the client expects it. */
  convertResponse(call: RelayCall, body: Bytes, contentType: string): ConvertedResponse;
  /** A converter for a successful streamed answer. */
  createStreamConverter(call: RelayCall, countCompletion: CompletionCounter, promptTokens: number): StreamConverter;
  /** A failed answer's body, reduced to message/type/code/param. */
  parseError(status: number, body: string): UpstreamErrorDetails;
  /** The error a stream reports in place of an answer (checked on its first event), if any. */
  streamError(event: SseEvent): UpstreamErrorDetails | undefined;

  /** The request listing the upstream's models (channel "fetch models"), or null. */
  buildModelsRequest(target: UpstreamTarget): UpstreamRequest | null;
  parseModels(body: string): string[];
  /** The requests telling the channel's balance (absent when the kind reports none). */
  buildBalanceRequests?(target: UpstreamTarget, nowSeconds: number): UpstreamRequest[];
  /** The balance in the provider's currency, from the answers of buildBalanceRequests. */
  parseBalance?(bodies: string[]): number;
}
