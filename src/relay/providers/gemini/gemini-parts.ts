// The content of one OpenAI message as Gemini parts. Text stays text. Media the client sends as
// a data URL (image_url, input_audio, file) becomes inlineData. A client's http(s) or gs:// URL
// becomes fileData, which the API fetches itself (public HTTPS URLs and Cloud Storage URIs are
// accepted file inputs): the gateway never fetches a client's URL (it could name an internal
// address). fileData needs a MIME type; it is read from the URL's extension, and an image URL
// without a known one is sent as image/jpeg.
import { refuseRequest } from "../conversion-refusal.ts";
import type { ChatAudioPart, ChatContentPart, ChatFilePart, ChatImagePart } from "../openai-chat-wire.ts";
import { unverified } from "../unverified.ts";
import type { GeminiPart } from "./gemini-wire.ts";

const mimeByExtension: Record<string, string> = {
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  webp: "image/webp",
  gif: "image/gif",
  heic: "image/heic",
  heif: "image/heif",
  pdf: "application/pdf",
  mp3: "audio/mp3",
  wav: "audio/wav",
  ogg: "audio/ogg",
  flac: "audio/flac",
  aac: "audio/aac",
  mp4: "video/mp4",
  mov: "video/mov",
  webm: "video/webm",
  txt: "text/plain",
};

/** A data URL as inlineData, or undefined when the text is not one. */
function inlineDataOf(url: string): GeminiPart | undefined {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  if (!match) return undefined;
  return { inlineData: { mimeType: match[1] || "application/octet-stream", data: match[2] ?? "" } };
}

function mimeOfUrl(url: string, fallback: string): string {
  const path = url.split(/[?#]/)[0] ?? "";
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (extension && mimeByExtension[extension]) || fallback;
}

/** An image (or other media) named by URL: inline when it is a data URL, by reference otherwise. */
export function mediaPart(url: string, fallbackMime: string): GeminiPart {
  const inline = inlineDataOf(url);
  if (inline) return inline;
  if (/^(https?|gs):\/\//i.test(url)) return { fileData: { mimeType: mimeOfUrl(url, fallbackMime), fileUri: url } };
  return refuseRequest("图片地址无效，请使用 http(s) 链接或 base64 data URL");
}

function partOf(value: unknown): GeminiPart | undefined {
  const part = unverified<ChatContentPart>(value);
  switch (part?.type) {
    case "text":
      return typeof part.text === "string" ? { text: part.text } : undefined;
    case "image_url": {
      const url = typeof part.image_url === "string" ? part.image_url : unverified<ChatImagePart["image_url"]>(part.image_url)?.url;
      if (typeof url !== "string" || url === "") refuseRequest("图片地址无效，请使用 http(s) 链接或 base64 data URL");
      return mediaPart(url, "image/jpeg");
    }
    case "input_audio": {
      const audio = unverified<ChatAudioPart["input_audio"]>(part.input_audio);
      const data = audio?.data;
      if (typeof data !== "string") refuseRequest("音频内容缺少 data");
      const format = typeof audio?.format === "string" ? audio.format : "wav";
      return { inlineData: { mimeType: `audio/${format}`, data } };
    }
    case "file": {
      const data = unverified<ChatFilePart["file"]>(part.file)?.file_data;
      if (typeof data === "string") return mediaPart(data, "application/pdf");
      return refuseRequest("文件只支持 file_data 形式（data URL 或链接），不支持文件 id");
    }
    default:
      return undefined;
  }
}

/** A message's content (string, or a list of typed parts) as Gemini parts. */
export function partsOfContent(content: unknown): GeminiPart[] {
  if (typeof content === "string") return content === "" ? [] : [{ text: content }];
  if (!Array.isArray(content)) return [];
  const parts: GeminiPart[] = [];
  for (const part of content) {
    if (typeof part === "string") parts.push({ text: part });
    else {
      const converted = partOf(part);
      if (converted) parts.push(converted);
    }
  }
  return parts;
}

/** The plain text of a content (for system instructions and tool results). */
export function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part: unknown) => {
      if (typeof part === "string") return part;
      const text = unverified<ChatContentPart>(part)?.text;
      return typeof text === "string" ? text : "";
    })
    .join("");
}
