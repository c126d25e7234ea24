// A type that cannot convert a call says so with an AppError from buildRequest; the relay turns
// it into the attempt's failure (attempt-channel.ts) with our translated message. A request the
// type can never take (an audio part for Claude, image links for Bedrock) is the client's to
// change: 400, not retried. A channel set up wrongly (a malformed key) is the operator's: 500,
// so the relay tries another channel.
import { AppError } from "../../errors/app-error.ts";

export function refuseRequest(messageKey: string): never {
  throw new AppError("invalid", messageKey, undefined, { code: "convert_request_failed" });
}

export function refuseChannelSetup(messageKey: string): never {
  throw new AppError("internal", messageKey, undefined, { code: "channel_config_error" });
}
