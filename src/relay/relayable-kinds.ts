// Which channel kinds this build can relay: the kinds with a provider adaptor, plus the kinds
// the task relay serves (Midjourney Proxy, Midjourney Proxy Plus, Suno). A channel of any other
// kind could never answer, so it is refused on create and enable (issue 17), and the channel
// drawer marks such kinds in its type list.
import { channelTypes } from "../services/channels/channel-types.ts";
import { hasAdaptor } from "./providers/registry.ts";

const taskKinds = new Set([2, 5, 36]);

export function canRelayKind(kind: number): boolean {
  return hasAdaptor(kind) || taskKinds.has(kind);
}

/** The catalogue's kinds this build cannot relay (empty while every kind has an adaptor). */
export function unrelayableKinds(): number[] {
  return channelTypes.map((info) => info.value).filter((kind) => !canRelayKind(kind));
}
