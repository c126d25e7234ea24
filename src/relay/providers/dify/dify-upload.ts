// Dify's transport: one chat-messages call, preceded by an upload for each image the client sent
// inline. Dify attaches images by URL (`remote_url`) or as files uploaded before the message
// (Dify's Service API, "上传文件": POST /v1/files/upload, multipart `file` and `user`, answering
// the file's `id`; the message then names it as `{type: "image", transfer_method: "local_file",
// upload_file_id}`). dify-request.ts leaves a data: URL in such a file entry under
// `pendingUploadField`; here it is uploaded with the app's key for the same end user and
// replaced by the id. A refused upload is Dify's answer to the call (a dead key disables the
// channel, an unsupported or too large file is the client's 4xx), and the message is not sent.
import type { SendOptions, UpstreamRequest } from "../adaptor.ts";

/** The field of a file entry that still holds the image to upload (never sent to Dify). */
export const pendingUploadField = "pending_upload_data_url";

const dataUrl = /^data:([^;,]+);base64,(.*)$/s;

function fetchWith(url: string, init: RequestInit, options: SendOptions): Promise<Response> {
  return fetch(url, {
    ...init,
    redirect: "manual",
    signal: options.signal,
    ...(options.proxy ? { proxy: options.proxy } : {}),
  } as RequestInit);
}

type FileEntry = Record<string, unknown>;

async function upload(
  entry: FileEntry,
  url: string,
  authorization: string,
  user: string,
  options: SendOptions,
): Promise<Response | string> {
  const [, mediaType, data] = dataUrl.exec(String(entry[pendingUploadField])) ?? [];
  const form = new FormData();
  const extension = (mediaType ?? "image/png").split("/")[1]?.replace("jpeg", "jpg") ?? "png";
  form.append("file", new Blob([Buffer.from(data ?? "", "base64")], { type: mediaType }), `image.${extension}`);
  form.append("user", user);
  const answer = await fetchWith(url, { method: "POST", headers: { authorization }, body: form }, options);
  if (!answer.ok) return answer;
  const id = ((await answer.json().catch(() => null)) as { id?: unknown } | null)?.id;
  if (typeof id !== "string" || id === "")
    return Response.json({ code: "bad_upload_answer", message: "Dify's upload answered no file id", status: 502 }, { status: 502 });
  return id;
}

export async function sendDify(request: UpstreamRequest, options: SendOptions): Promise<Response> {
  const body = typeof request.body === "string" ? request.body : "";
  const init = { method: request.method, headers: request.headers };
  if (!body.includes(pendingUploadField)) return fetchWith(request.url, { ...init, body: request.body }, options);
  const json = JSON.parse(body) as { user?: string; files?: FileEntry[] };
  const uploadUrl = request.url.replace(/\/v1\/chat-messages$/, "/v1/files/upload");
  const files: FileEntry[] = [];
  for (const entry of json.files ?? []) {
    if (!(pendingUploadField in entry)) {
      files.push(entry);
      continue;
    }
    const uploaded = await upload(entry, uploadUrl, request.headers.authorization ?? "", json.user ?? "", options);
    if (uploaded instanceof Response) return uploaded;
    files.push({ type: "image", transfer_method: "local_file", upload_file_id: uploaded });
  }
  return fetchWith(request.url, { ...init, body: JSON.stringify({ ...json, files }) }, options);
}
