// The typed state of one relay request, filled in step by step by the pipeline (no string-keyed
// stash): who pays, what was asked, what it costs, where it went.
import type { Price } from "../services/billing/quota-math.ts";
import type { EndpointSpec } from "./endpoints.ts";
import type { Flight } from "./in-flight.ts";
import type { PromptEstimate } from "./request/prompt-estimate.ts";
import type { ParsedCall } from "./request/read-call.ts";

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
  /** null = any model. */
  modelLimits: ReadonlySet<string> | null;
  /** sk-<key>-<channelId>: an admin sends everything to one channel, no retries. */
  pinnedChannelId?: number;
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
  /** Channel ids tried, in order. */
  channelChain: number[];
  /** Milliseconds from arrival to the first byte sent to the client. */
  firstResponseMs?: number;
  reasoningEffort?: string;
  /** Extra words for the log (image size and quality). */
  logNote?: string;
};
