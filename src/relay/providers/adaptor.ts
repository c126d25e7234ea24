// The provider adaptor contract: what the relay pipeline knows about an upstream channel type. An
// adaptor is data plus pure functions (no fetch, no store, no clock): it turns one client call
// into an upstream request, and the upstream's answer (whole, streamed, or an error) back into
// what the client asked for, reporting usage on the way. The pipeline never asks which type it
// holds. Its default models are the channel type table's (services/channels/channel-types.ts),
// handed out by the registry.
//
// What a type may need beyond one JSON request over HTTP is declared, never branched on:
//   - `credential`: a token obtained by an exchange first (Vertex OAuth, Baidu access token),
//     cached by the relay until it expires and handed to buildRequest in `target.credential`;
//   - buildRequest may be asynchronous (request signing with WebCrypto, JWTs);
//   - `streamDecoder`: stream framings other than server-sent events (AWS event stream, NDJSON);
//   - `send`: a transport other than one fetch (a WebSocket, submit-then-poll);
//   - `nativeFormats`: inbound formats (Claude /v1/messages, Gemini /v1beta, OpenAI /v1/responses)
//     the type speaks itself, so such a call goes through with only the model mapped; calls in
//     any other format reach the adaptor converted to the OpenAI format;
//   - `defaultMaxTokens`: a type whose vendor requires an output limit (Claude's max_tokens)
//     names the one it sends when the client sets none, so the relay's hold covers it; the call
//     then carries `completionAllowance`, which the type never exceeds;
//   - `modelList` and `balance`: channel management's "fetch models" and balance, for the vendors
//     that offer them.
// buildRequest refuses a call it cannot convert by throwing an AppError (conversion-refusal.ts):
// the attempt fails with that message and status, before anything is sent.

import type { ChannelType } from "../../services/channels/channel-types.ts";

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

/** The wire format a client called in: OpenAI's chat/completions family, or a vendor's own. */
export type InboundFormat = "openai" | "claude" | "gemini" | "responses";

/**
 * A tool the client wants the vendor to run itself (OpenAI's web_search, Claude's web search
 * server tool, Gemini's Google Search grounding), as a converted call carries it: the types
 * that have an equivalent map it (when the channel allows, `hostedToolsCarried`), the others
 * leave it out and the log says so.
 */
export type HostedTool = {
  type: "web_search";
  /** Most searches in one answer (Claude's max_uses). */
  maxUses?: number;
  allowedDomains?: string[];
  blockedDomains?: string[];
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string };
};

/** Bytes as fetch and Response take them. */
export type Bytes = Uint8Array<ArrayBuffer>;

/** The part of a channel's `setting` JSON the relay honours (new-api docs/channel/other_setting.md). */
export type ChannelSetting = {
  /** http(s):// or socks5:// proxy for this channel's upstream calls. */
  proxy?: string;
  /**
   * Run clients' hosted tools (web search) with the vendor's own equivalent on converted calls
   * (the vendor bills the searches to the channel's account). Default off: they are left out.
   */
  hosted_tools?: boolean;
};

/** What an adaptor needs to reach one channel. Holds the key: never leaves the server. */
export type UpstreamTarget = {
  id: number;
  /** The channel's type (ChannelType). */
  type: number;
  key: string;
  /** The channel's base URL override, without a trailing slash; empty = the type's default. */
  baseUrl: string;
  /** Per-type extra: Azure's api-version, for example. */
  other: string;
  organization: string;
  setting: ChannelSetting;
  /** The exchanged credential (adaptor.credential), filled in by the relay before buildRequest. */
  credential?: string;
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
  /**
   * Prompt tokens counted locally: the fallback when the upstream reports no usage. A function,
   * because counting costs and most answers carry the upstream's own usage.
   */
  countPromptTokens(): number;
  /**
   * Completion tokens the relay's hold covers (the client's max_tokens, else the allowance it
   * reserved). A type that must send a limit of its own never sends more. Absent outside the
   * relay (channel tests): no hold to respect.
   */
  completionAllowance?: number;
  /**
   * The call's max_tokens is the gateway's own (a channel test keeping its answer short), not a
   * client's: a type whose vendor takes no output limit leaves it out instead of refusing it.
   */
  gatewayLimit?: boolean;
  /**
   * Vendor headers of a call in a native format, forwarded by the types that speak it (Claude:
   * anthropic-version, anthropic-beta). Filled by the inbound route; names in lower case.
   */
  vendorHeaders?: Readonly<Record<string, string>>;
  /** Hosted tools a converted call asked for (see HostedTool). */
  hostedTools?: readonly HostedTool[];
  /** The hosted tool the client's tool_choice names: the call means nothing without it. */
  requiredHostedTool?: HostedTool["type"];
};

export type UpstreamRequest = {
  url: string;
  method: "GET" | "POST" | "DELETE";
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
  /** Prompt tokens read from the provider's cache (inside prompt_tokens), when the upstream says. */
  cached_tokens?: number;
  /** Prompt tokens written to the provider's cache (inside prompt_tokens; Claude reports them). */
  cache_creation_tokens?: number;
};

/** An upstream answer that was not a success, reduced to what the client and the rules need. */
export type UpstreamErrorDetails = {
  message: string;
  type: string;
  code: string | number | null;
  param: string | null;
  /**
   * For an error a vendor carries inside a successful answer (a 200 body, a stream's first event):
   * the HTTP status it stands for (a rate limit as 429, a bad request as 400), so the retry and
   * auto-disable rules judge it like the vendors that use statuses. Absent: 502.
   */
  status?: number;
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

export type GeneratedOutput = {
  text: string;
  toolCalls: number;
  /** Tokens of earlier output already counted (a long stream counts as it goes instead of keeping its text). */
  countedTokens?: number;
};

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
  /**
   * The answer broke off after it began (upstream cut or stalled): the texts that end the
   * client's stream with this error. Absent: the inbound format's own error event is sent.
   */
  abort?(error: StreamBreak): string[];
}

/** Why a stream that had begun was cut short, as the client is told. */
export type StreamBreak = UpstreamErrorDetails & { status: number };

/**
 * Turns the bytes of a streamed answer into events. Server-sent events are the default; a type
 * with another framing (AWS event stream, newline-delimited JSON) supplies its own, whose events
 * carry the decoded payload in `data` (and its type in `event`) for the type's stream converter.
 */
export interface FrameDecoder {
  push(bytes: Uint8Array): SseEvent[];
  /** The stream ended: whatever complete event is still buffered. */
  flush(): SseEvent[];
  /** True while part of an event is waiting for the rest of it. */
  pending(): boolean;
  /**
   * Text framings only: the text the last push decoded. When the converter returns it unchanged,
   * the relay forwards the received bytes as they are instead of encoding them again.
   */
  lastText?(): string;
}

/** A credential obtained by an exchange with the provider, cached until it expires. */
export interface CredentialExchange {
  /** What identifies the credential (a hash is taken of it; typically the channel key). */
  cacheKey(target: UpstreamTarget): string;
  /**
   * Whether this channel's key needs the exchange at all (absent: always). A type with two key
   * forms (Vertex: a service account, or an API key used as it is) says no for the direct one.
   */
  needed?(target: UpstreamTarget): boolean;
  /** The exchange request (may sign a JWT assertion, hence possibly asynchronous). */
  request(target: UpstreamTarget, nowSeconds: number): UpstreamRequest | Promise<UpstreamRequest>;
  /** The credential and when it expires (unix seconds) from a successful answer; throws if unreadable. */
  parse(body: string, nowSeconds: number): { value: string; expiresAt: number };
  /**
   * Whether a failed call says the exchanged credential is no longer valid although its key may
   * be (Baidu's error 110/111 inside a 200 answer). The relay then forgets it, as after any 401,
   * and the next call exchanges again.
   */
  rejected?(details: UpstreamErrorDetails): boolean;
}

/** What a custom transport gets besides the request. */
export type SendOptions = {
  /** Aborts the exchange (timeouts, the client leaving). */
  signal: AbortSignal | undefined;
  /** The channel's proxy setting. */
  proxy?: string;
};

/** Counts completion tokens locally (given to stream converters that must synthesise usage). */
export type CompletionCounter = (output: GeneratedOutput) => number;

/** Channel management's "fetch models": the request listing the upstream's models, page by page. */
export interface ModelListing {
  request(target: UpstreamTarget): UpstreamRequest | Promise<UpstreamRequest>;
  /** The model ids of one answer; throws when the answer is unreadable. */
  parse(body: string): string[];
  /** A paged list: the request for the page after this answer, or null after the last. */
  next?(target: UpstreamTarget, body: string): UpstreamRequest | Promise<UpstreamRequest> | null;
}

/** A channel's balance, as the provider reports it. */
export interface BalanceQuery {
  /** The requests telling the balance (asked one after the other). */
  requests(target: UpstreamTarget, nowSeconds: number): UpstreamRequest[] | Promise<UpstreamRequest[]>;
  /** The balance in the provider's currency, from the answers of `requests`. */
  parse(bodies: string[]): number;
}

export interface ProviderAdaptor {
  /** The channel type it serves (ChannelType, services/channels/channel-types.ts; docs/COMPATIBILITY.md, Channel types). */
  readonly type: ChannelType;
  readonly name: string;
  /** `owned_by` of the type's models in /v1/models. */
  readonly owner: string;
  readonly defaultBaseUrl: string;
  /** Inbound formats the type speaks itself (passed through with only the model mapped). */
  readonly nativeFormats?: readonly InboundFormat[];
  /** A credential to obtain before calling (see CredentialExchange). */
  readonly credential?: CredentialExchange;
  /**
   * The output limit the type sends when the client sets none, for vendors that require one
   * (Claude's max_tokens). The relay's hold covers it; absent: the PreConsumedQuota allowance.
   */
  defaultMaxTokens?(upstreamModel: string): number;

  /**
   * URL, headers and body of the upstream request for one call. An AppError thrown here (an
   * endpoint the type does not serve, a request it cannot convert) fails the attempt with its
   * message and status, without reaching the upstream.
   */
  buildRequest(call: RelayCall, target: UpstreamTarget): UpstreamRequest | Promise<UpstreamRequest>;
  /**
   * The decoder of a successful answer that is a stream, by its content type; null when the answer
   * is a whole body. Absent: server-sent events when the content type is text/event-stream.
   */
  streamDecoder?(contentType: string, call: RelayCall): FrameDecoder | null;
  /**
   * A transport other than fetch (a WebSocket, submit-then-poll). It answers like fetch would:
   * a Response whose status, content type and body the rest of the relay reads as usual.
   */
  send?(request: UpstreamRequest, options: SendOptions): Promise<Response>;
  /**
   * A request about a response the upstream keeps (OpenAI's Responses API: GET or DELETE
   * /responses/{id}, GET /responses/{id}/input_items), for types that speak that API; `path`
   * follows the collection and starts with "/".
   */
  buildResponsesStateRequest?(target: UpstreamTarget, method: "GET" | "DELETE", path: string): UpstreamRequest;
  /**
   * The hosted tools of the call this channel runs with its vendor's own equivalent (the rest are
   * left out of the call). Absent: none.
   */
  hostedToolsCarried?(call: RelayCall, target: UpstreamTarget): readonly HostedTool["type"][];
  /** A successful non-streamed answer, as the client expects it. */
  convertResponse(call: RelayCall, body: Bytes, contentType: string): ConvertedResponse;
  /** A converter for a successful streamed answer. */
  createStreamConverter(call: RelayCall, countCompletion: CompletionCounter): StreamConverter;
  /** A failed answer's body, reduced to message/type/code/param. */
  parseError(status: number, body: string): UpstreamErrorDetails;
  /** The error a stream reports in place of an answer (checked on its first event), if any. */
  streamError(event: SseEvent, call: RelayCall): UpstreamErrorDetails | undefined;

  /** Channel "fetch models" (absent when the vendor lists none: the form says it is not implemented). */
  readonly modelList?: ModelListing;
  /** The channel's balance (absent when the vendor reports none). */
  readonly balance?: BalanceQuery;
}
