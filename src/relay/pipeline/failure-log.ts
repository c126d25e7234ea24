// The error log entry of a refused or failed relay call (services/logs/error-log-book.ts): who
// called (the caller, the owner of a recognised key that was refused, or nobody), the model, the
// channels tried, and the status and error exactly as the client received them. Only failures
// come here; the book batches and bounds the writes.
import { type ErrorLogEntry, recordErrorLog } from "../../services/logs/error-log-book.ts";
import { refusedCallerOf } from "../auth/refused-caller.ts";
import { currentChannelIndex } from "../caches/channel-cache.ts";
import type { RelayCaller } from "../relay-context.ts";
import { pathOfUrl } from "../../faces.ts";
import type { RelayErrorParts } from "./relay-errors.ts";
import type { CaptureParts } from "../../services/captures/capture-store.ts";

export type RelayFailure = {
  request: Request;
  requestId: string;
  /** performance.now() when the request arrived. */
  startedAt: number;
  error: unknown;
  parts: RelayErrorParts;
  caller?: RelayCaller;
  model?: string;
  stream?: boolean;
  channelChain?: readonly number[];
  clientAddress?: () => string;
  /** What the request inspector keeps of the call, when the caller's capture is on. */
  capture?: CaptureParts;
};

const requestIdSuffix = / \(request id: [^)]*\)$/;

export function logRelayFailure(failure: RelayFailure): void {
  const owner = failure.caller ?? refusedCallerOf(failure.error);
  const chain = failure.channelChain ?? [];
  const channelId = chain.at(-1) ?? 0;
  const message = failure.parts.error.message;
  const entry: ErrorLogEntry = {
    userId: owner?.userId ?? 0,
    username: owner?.username ?? "",
    tokenId: owner?.tokenId ?? 0,
    tokenName: owner?.tokenName ?? "",
    group: owner?.group ?? "",
    model: failure.model ?? "",
    channelId,
    channelName: channelId ? (currentChannelIndex()?.byId.get(channelId)?.name ?? "") : "",
    status: failure.parts.status,
    message,
    errorType: failure.parts.error.type,
    errorCode: failure.parts.error.code,
    path: pathOfUrl(failure.request.url),
    requestId: failure.requestId,
    ip: failure.clientAddress?.() ?? "",
    useTimeSeconds: Math.round((performance.now() - failure.startedAt) / 1000),
    isStream: failure.stream ?? false,
    channelChain: [...chain],
    reason: message.replace(requestIdSuffix, ""),
    capture: failure.capture,
  };
  recordErrorLog(entry);
}
