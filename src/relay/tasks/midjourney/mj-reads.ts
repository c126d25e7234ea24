// Reading drawing tasks on /mj: fetch and list-by-condition answer from our store (kept current by
// the poller and callbacks), never from the upstream; a user reads their own tasks, an admin any.
// The image seed is only known upstream, so it is asked from the task's own channel. Images are
// served through us when MjForwardUrlEnabled hides the upstream's addresses.
import { AppError } from "../../../errors/app-error.ts";
import { fetchOutbound } from "../../../http/outbound-url.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { drawings, findDrawingImageUrl } from "../../../services/tasks/drawing-tasks.ts";
import { drawingDto } from "../../../services/tasks/task-views.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { newRequestId } from "../../request-id.ts";
import { keyTargetOf } from "../../channels/key-pool.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { mjErrorResponse, taskJson, upstreamAnswerError } from "../task-replies.ts";
import { channelOfTask } from "../task-routing.ts";
import { readJsonObjectWithin } from "../../request/json-body.ts";
import { mjRequest } from "./mj-upstream.ts";

/** `bodyLimit`: MAX_REQUEST_BODY_MB, in bytes. */
type Read = { authenticate: () => Promise<RelayCaller>; translate: Translate; bodyLimit: number };

const readerOf = (caller: RelayCaller) => ({ userId: caller.userId, admin: isAdmin(caller.role) });

async function answer(read: Read, produce: (caller: RelayCaller) => Promise<Response | unknown>): Promise<Response> {
  const requestId = newRequestId();
  try {
    const result = await produce(await read.authenticate());
    return result instanceof Response ? result : taskJson(200, result, requestId);
  } catch (error) {
    return mjErrorResponse(error, read.translate, requestId);
  }
}

const taskNotFound = () => new AppError("not_found", "任务不存在", undefined, { code: "task_not_found" });

export function fetchDrawing(read: Read, mjId: string): Promise<Response> {
  return answer(read, async (caller) => {
    const row = await drawings.find(mjId, readerOf(caller));
    if (!row) throw taskNotFound();
    return drawingDto(row);
  });
}

export function listDrawingsByCondition(read: Read, request: Request): Promise<Response> {
  return answer(read, async (caller) => {
    const body = await readJsonObjectWithin(request, read.bodyLimit);
    const ids = Array.isArray(body.ids)
      ? body.ids.map((id) => (typeof id === "number" ? String(id) : id)).filter((id): id is string => typeof id === "string")
      : [];
    return (await drawings.findMany(ids, readerOf(caller))).map(drawingDto);
  });
}

const seedTimeoutMs = 30_000;

export function drawingImageSeed(read: Read, mjId: string): Promise<Response> {
  return answer(read, async (caller) => {
    const row = await drawings.find(mjId, readerOf(caller));
    if (!row) throw taskNotFound();
    const channel = await channelOfTask(row.channel_id);
    if (!channel) throw new AppError("unavailable", "原任务所在的渠道不可用");
    const path = `/mj/task/${encodeURIComponent(mjId)}/image-seed`;
    const target = keyTargetOf(channel.keyPool, channel.target, row.key_index);
    const upstream = await sendOnce(mjRequest(target, path), target, seedTimeoutMs);
    if (upstream.status < 200 || upstream.status >= 300) throw upstreamAnswerError(upstream, target);
    return upstream.text;
  });
}

const imageTimeoutMs = 30_000;

/**
 * GET /mj/image/{id}: the task's picture, fetched from where the upstream keeps it. Anyone with
 * the id may see it (as with the upstream's own links). Only images are passed on, never a page
 * an upstream could make us serve from our origin; the address is checked like any outbound URL.
 */
export async function drawingImage(mjId: string): Promise<Response> {
  const notFound = () => new Response(null, { status: 404, headers: { "x-content-type-options": "nosniff" } });
  const imageUrl = await findDrawingImageUrl(mjId);
  if (!imageUrl) return notFound();
  try {
    const upstream = await fetchOutbound(imageUrl, { method: "GET", timeoutMs: imageTimeoutMs }, { allowHttp: true });
    const type = upstream.headers.get("content-type") ?? "";
    if (upstream.status !== 200 || !/^image\//i.test(type)) {
      await upstream.body?.cancel();
      return new Response(null, { status: 502, headers: { "x-content-type-options": "nosniff" } });
    }
    return new Response(upstream.body, {
      headers: { "content-type": type, "cache-control": "public, max-age=86400", "x-content-type-options": "nosniff" },
    });
  } catch {
    return new Response(null, { status: 502, headers: { "x-content-type-options": "nosniff" } });
  }
}
