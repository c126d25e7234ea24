// One plain upstream call read to the end: for channel management (model lists, balances) and
// credential exchanges, not the relay's hot path, which streams. Network failures come back as a
// sanitised reason, never as an exception carrying the upstream address.
import type { Bytes, ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "../providers/adaptor.ts";
import { sendUpstream } from "./send-upstream.ts";
import { describeNetworkFailure } from "./upstream-failure.ts";

export type PlainAnswer = { status: number; text: string; contentType: string; bytes: Bytes; failure?: string };

export async function sendOnce(
  request: UpstreamRequest,
  target: UpstreamTarget,
  timeoutMs: number,
  transport?: Pick<ProviderAdaptor, "send">,
): Promise<PlainAnswer> {
  try {
    const response = await sendUpstream(transport, request, target, AbortSignal.timeout(timeoutMs));
    const bytes = new Uint8Array(await response.arrayBuffer());
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
