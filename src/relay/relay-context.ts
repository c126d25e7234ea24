// The typed state of one relay request, filled in step by step by the pipeline (no string-keyed
// stash): who pays, what was asked, what it costs, where it went.
import type { TokenLimits } from "./caches/token-cache.ts";
import type { Price } from "../services/billing/quota-math.ts";
import type { EndpointSpec } from "./endpoints.ts";
import type { Flight } from "./in-flight.ts";
import type { ConnectionIdle } from "./pipeline/connection-idle.ts";
import type { PromptEstimate } from "./request/prompt-estimate.ts";
import type { ParsedCall } from "./request/read-call.ts";
import type { CallCapture } from "./capture/call-capture.ts";

/** Who is calling and who pays: a token's owner, or a console user in the playground. */
export type RelayCaller = {
  userId: number;
  username: string;
  role: number;
  /** The group that picks channels and the group ratio (the token's group when it has one). */
  group: string;
  /** 0 when no token is involved (playground). */
  tokenId: number;
  tokenKey: string;
  tokenName: string;
  /** The token has its own balance, debited along with the user's. */
  tokenLimited: boolean;
  /** The token's period budget and rate limits; absent when it has none (nothing to check). */
  limits?: TokenLimits;
  /** null = any model. */
  modelLimits: ReadonlySet<string> | null;
  /** sk-<key>-<channelId>: an admin sends everything to one channel, no retries. */
  pinnedChannelId?: number;
  /** The request inspector's window, the later of the token's and the user's (0 = off). */
  captureUntil: number;
};

export type RelayContext = {
  requestId: string;
  /** performance.now() when the request arrived. */
  startedAt: number;
  endpoint: EndpointSpec;
  caller: RelayCaller;
  call: ParsedCall;
  price: Price;
  /** Pictures x size and quality factors for images; 1 otherwise. */
  units: number;
  /** The prompt's bound for the hold and, only when needed, its count. */
  prompt: PromptEstimate;
  /** Completion tokens the hold covers (adaptors that must send a limit stay within it). */
  completionAllowance: number;
  holdAmount: number;
  held: boolean;
  /** Settled, or released by a stopping server's cut: either way nothing more moves. */
  settled: boolean;
  /** A stream took over the answer (and the flight, which it ends after its settlement). */
  streaming: boolean;
  /** This request in the registry a stopping server waits for (in-flight.ts). */
  flight: Flight;
  /** Bun's idle timer of the client's connection, which a stream takes over (connection-idle.ts). */
  connection: ConnectionIdle;
  /** Channel ids tried, in order. */
  channelChain: number[];
  /** Milliseconds from arrival to the first byte sent to the client. */
  firstResponseMs?: number;
  reasoningEffort?: string;
  /** Extra words for the log (image size and quality). */
  logNote?: string;
  /** The client's address for the log (read once the call is admitted, while its connection is open). */
  clientIp: string;
  /** Tokens reserved in the token's minute (its tpm_limit) until the settlement replaces them. */
  minuteReserved?: number;
  /** Tools the attempt that answered went without (a converted call's; for the log). */
  toolsLeftOut?: string[];
  /** The request inspector's record of this call, when a capture is on (relay/capture/). */
  capture?: CallCapture;
};
