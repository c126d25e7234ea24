// Downloading an image a client named by URL, for vendors that take images only inline (Bedrock
// and Claude on Vertex, Moonshot, Ollama's OpenAI API). The address is the client's choice, so it
// goes through the outbound-address guard the webhooks use (http/outbound-url.ts: public addresses
// only, pinned against DNS rebinding), and so does every redirect it answers with. A download is
// bounded in time and size, and few run at once in the whole process, so a burst of calls naming
// large images cannot hold more than `maxConcurrent × maxImageBytes` of image bytes in memory.
import { AppError } from "../../../errors/app-error.ts";
import { fetchOutbound } from "../../../http/outbound-url.ts";
import { describeBytes } from "../../../http/read-body.ts";
import { refuseRequest } from "../conversion-refusal.ts";

const imageDownloadLimits = {
  /** Largest image fetched (Claude's own limit per image is 5 MB; other vendors stay below 10). */
  maxImageBytes: 10 * 1024 * 1024,
  /** One download, redirects and body included. */
  timeoutMs: 20_000,
  /** Downloads running at once in the process; the rest wait their turn. */
  maxConcurrent: 8,
  /** Redirects followed, each checked like the first address. */
  maxRedirects: 3,
  /** Images downloaded for one call at most. */
  maxImagesPerCall: 20,
};

/** The media types the inline-only vendors document (Claude, Kimi, Ollama's vision models). */
const imageTypes = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= imageDownloadLimits.maxConcurrent) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

const failed = (reason: string): never => {
  throw new AppError("invalid", "下载图片失败：{{reason}}", { reason }, { code: "image_download_failed" });
};

/** The first part of a media type, lower case ("image/png; charset=x" -> "image/png"). */
const mediaTypeOf = (contentType: string | null) => (contentType ?? "").split(";")[0]!.trim().toLowerCase();

async function readWithin(response: Response, limit: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (Number.isFinite(declared) && declared > limit) {
    await response.body?.cancel().catch(() => undefined);
    tooLarge(limit);
  }
  if (!response.body) return new Uint8Array(0);
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      tooLarge(limit);
    }
    parts.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.byteLength;
  }
  return bytes;
}

function tooLarge(limit: number): never {
  throw new AppError("invalid", "图片超过 {{limit}}，无法转发", { limit: describeBytes(limit) }, { code: "image_too_large" });
}

async function download(url: string, deadline: number): Promise<{ mediaType: string; data: string }> {
  let address = url;
  for (let hop = 0; ; hop++) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) failed("timeout");
    let response: Response;
    try {
      response = await fetchOutbound(address, { method: "GET", timeoutMs: remaining, headers: { accept: "image/*" } }, { allowHttp: true });
    } catch (error) {
      if (error instanceof AppError && error.messageKey === "不允许访问该地址") {
        const reason = error.cause instanceof Error ? error.cause.message : "";
        // A name that does not resolve is the link's fault, not a forbidden address.
        if (/^(cannot resolve|no address for) /.test(reason)) return failed("unknown host");
        return refuseRequest("图片地址指向不允许访问的地址");
      }
      return failed(error instanceof Error && error.name === "TimeoutError" ? "timeout" : "network error");
    }
    if (response.status >= 300 && response.status < 400 && response.headers.get("location")) {
      await response.body?.cancel().catch(() => undefined);
      if (hop >= imageDownloadLimits.maxRedirects) failed("too many redirects");
      address = new URL(response.headers.get("location")!, address).href;
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel().catch(() => undefined);
      failed(`HTTP ${response.status}`);
    }
    const mediaType = mediaTypeOf(response.headers.get("content-type"));
    if (!imageTypes.has(mediaType)) {
      await response.body?.cancel().catch(() => undefined);
      failed(`not an image (${mediaType || "no content type"})`);
    }
    let bytes: Uint8Array;
    try {
      bytes = await readWithin(response, imageDownloadLimits.maxImageBytes);
    } catch (error) {
      if (error instanceof AppError) throw error;
      return failed(error instanceof Error && error.name === "TimeoutError" ? "timeout" : "connection lost");
    }
    return { mediaType, data: Buffer.from(bytes).toString("base64") };
  }
}

/**
 * The image at a client's http(s) URL, as its media type and base64 data. Throws a 400 AppError
 * the client can read: a private address, no image, too large, too slow.
 */
function downloadImage(url: string): Promise<{ mediaType: string; data: string }> {
  const deadline = Date.now() + imageDownloadLimits.timeoutMs;
  return slot(() => download(url, deadline));
}

/** Downloads for one call, at most a few at a time, each URL once. */
export async function downloadImages(urls: string[]): Promise<Map<string, { mediaType: string; data: string }>> {
  const unique = [...new Set(urls)];
  if (unique.length > imageDownloadLimits.maxImagesPerCall)
    throw new AppError(
      "invalid",
      "图片链接过多，一次最多 {{count}} 张",
      { count: imageDownloadLimits.maxImagesPerCall },
      { code: "too_many_images" },
    );
  const results = new Map<string, { mediaType: string; data: string }>();
  await Promise.all(unique.map(async (url) => results.set(url, await downloadImage(url))));
  return results;
}
