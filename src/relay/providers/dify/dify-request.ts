// The OpenAI chat request as one Dify chat-messages call. A Dify app keeps conversations itself
// (conversation_id), while an OpenAI client sends the whole history with every call; the relay
// keeps no state between calls, so each call starts a new Dify conversation and carries the
// earlier turns inside the query: a lone user message is sent as it is, anything more as a
// transcript with SYSTEM/USER/ASSISTANT headings ending with the newest user message. Images of
// the newest user message go in `files`: a link as `remote_url`, an inline (data:) image as a
// `local_file` uploaded first through Dify's file upload (dify-upload.ts does it when the call is
// sent). The end user is the client's `user` field; `inputs` the client's, if any.
import type { RelayCall } from "../adaptor.ts";
import { refuseRequest } from "../conversion-refusal.ts";
import { refuseUnsupportedFields } from "../vendor-format-helpers/field-support.ts";
import { imagesOf, messagesOf, stringField, textOf } from "../vendor-format-helpers/chat-request.ts";
import { pendingUploadField } from "./dify-upload.ts";

/** Who Dify sees when the client names no end user. */
const defaultDifyUser = "switchyard";

const heading: Record<string, string> = { system: "SYSTEM", developer: "SYSTEM", user: "USER", assistant: "ASSISTANT", tool: "TOOL" };

export function difyQuery(call: RelayCall): string {
  const messages = messagesOf(call);
  if (messages.length === 1 && messages[0]!.role === "user") return textOf(messages[0]!.content);
  return messages.map((message) => `${heading[message.role] ?? message.role.toUpperCase()}:\n${textOf(message.content)}`).join("\n\n");
}

type DifyFile = { type: "image"; transfer_method: "remote_url" | "local_file"; url?: string; upload_file_id?: string };

function filesOf(call: RelayCall): DifyFile[] {
  const last = messagesOf(call).findLast((message) => message.role === "user");
  const urls = last ? imagesOf(last.content) : [];
  return urls.map((url) => {
    if (/^https?:\/\//i.test(url)) return { type: "image", transfer_method: "remote_url", url };
    if (!/^data:image\/[\w.+-]+;base64,/i.test(url)) refuseRequest("图片地址无效，请使用 http(s) 链接或 base64 data URL");
    return { type: "image", transfer_method: "local_file", upload_file_id: "", [pendingUploadField]: url };
  });
}

export function difyBody(call: RelayCall): Record<string, unknown> {
  // The app decides its model and output: none of OpenAI's generation fields reach it.
  refuseUnsupportedFields(call, "Dify", { outputLimit: false });
  const inputs = call.json?.inputs;
  const body: Record<string, unknown> = {
    inputs: inputs && typeof inputs === "object" && !Array.isArray(inputs) ? inputs : {},
    query: difyQuery(call),
    // Agent apps answer only in streaming mode; a client wanting a whole answer gets it folded.
    response_mode: "streaming",
    user: stringField(call, "user") ?? defaultDifyUser,
    auto_generate_name: false,
  };
  const files = filesOf(call);
  if (files.length) body.files = files;
  return body;
}
