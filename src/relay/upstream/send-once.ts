// One plain upstream call read to the end: for channel management (model lists, balances),
// credential exchanges and task polls, not the relay's hot path, which streams. Network failures
// come back as a sanitised reason, never as an exception carrying the upstream address (as does a
// call given up through `cancel`). With a
// byte limit, an answer longer than it is cut off unread (`tooLarge`, status 0).
import type { Bytes, ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "../providers/adaptor.ts";
import { readWithin } from "./read-within.ts";
import { sendUpstream } from "./send-upstream.ts";
import { describeNetworkFailure } from "./upstream-failure.ts";

export type PlainAnswer = { status: number; text: string; contentType: string; bytes: Bytes; failure?: string; tooLarge?: boolean };

export async function sendOnce(
  request: UpstreamRequest,
  target: UpstreamTarget,
  timeoutMs: number,
  transport?: Pick<ProviderAdaptor, "send">,
  limitBytes?: number,
  cancel?: AbortSignal,
): Promise<PlainAnswer> {
  try {
    const deadline = AbortSignal.timeout(timeoutMs);
    const response = await sendUpstream(transport, request, target, cancel ? AbortSignal.any([deadline, cancel]) : deadline);
    const bytes = limitBytes === undefined ? new Uint8Array(await response.arrayBuffer()) : await readWithin(response, limitBytes);
    if (!bytes) {
      return { status: 0, text: "", contentType: "", bytes: new Uint8Array(), failure: `answer over ${limitBytes} bytes`, tooLarge: true };
    }
    return {
      status: response.status,
      bytes,
      text: new TextDecoder().decode(bytes),
      contentType: response.headers.get("content-type") ?? "",
    };
  } catch (error) {
    return { status: 0, text: "", contentType: "", bytes: new Uint8Array(), failure: describeNetworkFailure(error) };
  }
}
