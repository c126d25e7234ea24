// For vendors that take images only inline: a call's image links are downloaded
// (image-download.ts, through the outbound-address guard) and put in the call as data, so the
// type's own conversion sees only inline images. OpenAI chat parts become data: URLs
// (`image_url.url`); Claude-format image blocks with a `url` source become `base64` sources
// (tool results included). A call without links is returned as it is, without any work.
import type { RelayCall } from "../adaptor.ts";
import { downloadImages } from "./image-download.ts";

type Json = Record<string, any>;

const isLink = (url: unknown): url is string => typeof url === "string" && /^https?:\/\//i.test(url);

function openAIPartLink(part: Json): string | undefined {
  if (part?.type !== "image_url") return undefined;
  const url = typeof part.image_url === "string" ? part.image_url : part.image_url?.url;
  return isLink(url) ? url : undefined;
}

function claudeBlockLink(block: Json): string | undefined {
  return block?.type === "image" && block.source?.type === "url" && isLink(block.source.url) ? block.source.url : undefined;
}

/** Every content list of a call's messages (Claude tool results hold lists of their own). */
function* contentLists(call: RelayCall): Generator<Json[]> {
  const messages = call.json?.messages;
  if (!Array.isArray(messages)) return;
  for (const message of messages as Json[]) {
    if (!Array.isArray(message?.content)) continue;
    yield message.content;
    if (call.format !== "claude") continue;
    for (const block of message.content as Json[]) if (block?.type === "tool_result" && Array.isArray(block.content)) yield block.content;
  }
}

/** The http(s) image links of a call (empty for most calls: checked without any await). */
export function imageLinksOf(call: RelayCall): string[] {
  const read = call.format === "claude" ? claudeBlockLink : openAIPartLink;
  const links: string[] = [];
  for (const list of contentLists(call)) {
    for (const item of list) {
      const link = read(item);
      if (link) links.push(link);
    }
  }
  return links;
}

type Image = { mediaType: string; data: string };

function inlineOpenAIPart(part: Json, images: Map<string, Image>): Json {
  const link = openAIPartLink(part);
  const image = link && images.get(link);
  if (!image) return part;
  const url = `data:${image.mediaType};base64,${image.data}`;
  return { ...part, image_url: typeof part.image_url === "string" ? { url } : { ...part.image_url, url } };
}

function inlineClaudeBlock(block: Json, images: Map<string, Image>): Json {
  if (block?.type === "tool_result" && Array.isArray(block.content))
    return { ...block, content: block.content.map((inner: Json) => inlineClaudeBlock(inner, images)) };
  const link = claudeBlockLink(block);
  const image = link && images.get(link);
  if (!image) return block;
  return { ...block, source: { type: "base64", media_type: image.mediaType, data: image.data } };
}

/** The call with its image links downloaded and inlined; the same call when it has none. */
export async function withInlineImages(call: RelayCall): Promise<RelayCall> {
  const links = imageLinksOf(call);
  if (links.length === 0) return call;
  const images = await downloadImages(links);
  const inline = call.format === "claude" ? inlineClaudeBlock : inlineOpenAIPart;
  const messages = (call.json!.messages as Json[]).map((message) =>
    Array.isArray(message?.content) ? { ...message, content: message.content.map((item: Json) => inline(item, images)) } : message,
  );
  const json = { ...call.json, messages };
  return { ...call, json, rawBody: new TextEncoder().encode(JSON.stringify(json)) };
}
