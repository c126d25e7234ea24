// How stored tasks are shown: to relay clients in the upstream's own shapes (midjourney-proxy's
// camelCase task, the Suno proxies' task), and to /api and the console as rows with new-api's
// fields for drawing and music tasks. Internal columns (the charge's request id, the client's
// callback URL) are never shown; only admins see the channel.
import { optionBool, optionText } from "../options/options.ts";
import type { DrawingRow } from "./drawing-tasks.ts";
import type { MusicRow } from "./music-tasks.ts";

function parsed<T>(text: string, fallback: T): T {
  if (!text) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** With MjForwardUrlEnabled images are served through us (/mj/image/{id}), hiding the upstream. */
export function drawingImageUrl(row: Pick<DrawingRow, "image_url" | "mj_id">): string {
  if (!row.image_url || !row.mj_id || !optionBool("MjForwardUrlEnabled")) return row.image_url;
  return `${optionText("ServerAddress")}/mj/image/${encodeURIComponent(row.mj_id)}`;
}

export function drawingDto(row: DrawingRow) {
  return {
    id: row.mj_id,
    action: row.action,
    prompt: row.prompt,
    promptEn: row.prompt_en,
    description: row.description,
    state: row.state,
    submitTime: row.submit_time,
    startTime: row.start_time,
    finishTime: row.finish_time,
    imageUrl: drawingImageUrl(row),
    status: row.status,
    progress: row.progress,
    failReason: row.fail_reason,
    buttons: parsed<unknown[]>(row.buttons, []),
    properties: parsed<Record<string, unknown>>(row.properties, {}),
  };
}

export function drawingView(row: DrawingRow, admin: boolean) {
  return {
    id: row.id,
    code: row.code,
    user_id: row.user_id,
    action: row.action,
    mj_id: row.mj_id,
    prompt: row.prompt,
    prompt_en: row.prompt_en,
    description: row.description,
    state: row.state,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    image_url: drawingImageUrl(row),
    status: row.status,
    progress: row.progress,
    fail_reason: row.fail_reason,
    channel_id: admin ? row.channel_id : 0,
    quota: row.quota,
    refunded: row.refunded,
    buttons: row.buttons,
    properties: row.properties,
  };
}

export function musicDto(row: MusicRow) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    data: parsed<unknown>(row.data, null),
  };
}

export function musicView(row: MusicRow, admin: boolean) {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    task_id: row.task_id,
    platform: row.platform,
    user_id: row.user_id,
    channel_id: admin ? row.channel_id : 0,
    quota: row.quota,
    refunded: row.refunded,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason,
    submit_time: row.submit_time,
    start_time: row.start_time,
    finish_time: row.finish_time,
    progress: row.progress,
    properties: row.properties,
    data: row.data,
  };
}
