// A whole (non-streamed) answer: settle, then send the converted body. The client receives it
// only after the money moved, so what it sees is already in its balance and logs.
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import type { ConvertedResponse, RelayCall } from "../providers/adaptor.ts";
import type { RelayContext } from "../relay-context.ts";
import { relayHeaders } from "./relay-errors.ts";
import { settleCall } from "./settle-call.ts";

export async function answerWhole(
  context: RelayContext,
  channel: ChannelSnapshot,
  call: RelayCall,
  converted: ConvertedResponse,
): Promise<Response> {
  context.firstResponseMs = Math.round(performance.now() - context.startedAt);
  await settleCall(context, { channel, upstreamModel: call.upstreamModel, upstreamFormat: call.format, usage: converted.usage, output: converted.output });
  return new Response(converted.body, {
    status: 200,
    headers: { "content-type": converted.contentType || "application/json", ...relayHeaders(context.requestId) },
  });
}
