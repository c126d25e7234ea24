// PaLM answers a whole JSON body even when the client wants a stream. For such a call this
// "stream framing" reads the whole body and hands it to the stream converter as one event at its
// end, so the relay streams synthesised chunks to the client (palm-response.ts) through its usual
// stream path: settlement before [DONE], the client's usage chunk, errors before anything is sent.
import type { FrameDecoder, RelayCall, SseEvent } from "../adaptor.ts";

export function wholeBodyDecoder(contentType: string, call: RelayCall): FrameDecoder | null {
  if (!call.stream) return null;
  if (contentType.startsWith("text/event-stream")) return null;
  const decoder = new TextDecoder();
  let text = "";
  let flushed = false;
  return {
    push(bytes): SseEvent[] {
      text += decoder.decode(bytes, { stream: true });
      return [];
    },
    flush(): SseEvent[] {
      if (flushed) return [];
      flushed = true;
      text += decoder.decode();
      return [{ raw: text, event: "message", data: text }];
    },
    pending: () => !flushed && text !== "",
  };
}
