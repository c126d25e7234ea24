// Drawing tasks (Midjourney): the midjourneys table, timed in milliseconds as midjourney-proxy
// times them, the upstream's id in mj_id. What a report changes besides the state: the English
// prompt, description, times, image and buttons, each within what a task keeps (task-keep.ts).
import { and, desc, eq, ne } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import type { Tables } from "../../store/schema/define-schema.ts";
import { keptJson, keptText, keptUrl } from "./task-keep.ts";
import { createTaskStore } from "./task-store.ts";

export type DrawingRow = Tables["midjourneys"]["$inferSelect"];
export type NewDrawing = Tables["midjourneys"]["$inferInsert"];

/** A task as midjourney-proxy describes it (fetch, list-by-condition, notify callbacks). */
export type UpstreamDrawing = {
  id?: unknown;
  action?: unknown;
  prompt?: unknown;
  promptEn?: unknown;
  description?: unknown;
  state?: unknown;
  submitTime?: unknown;
  startTime?: unknown;
  finishTime?: unknown;
  imageUrl?: unknown;
  status?: unknown;
  progress?: unknown;
  failReason?: unknown;
  properties?: unknown;
  buttons?: unknown;
};

const text = (value: unknown): string => (typeof value === "string" ? value : "");
const millis = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) && value > 0 ? Math.trunc(value) : undefined;

export const drawings = createTaskStore<DrawingRow, NewDrawing, UpstreamDrawing>({
  kind: "drawing",
  table: () => t.midjourneys,
  columns: () => ({
    id: t.midjourneys.id,
    upstreamId: t.midjourneys.mj_id,
    userId: t.midjourneys.user_id,
    channelId: t.midjourneys.channel_id,
    status: t.midjourneys.status,
    progress: t.midjourneys.progress,
    failReason: t.midjourneys.fail_reason,
    submitTime: t.midjourneys.submit_time,
    refunded: t.midjourneys.refunded,
    requestId: t.midjourneys.request_id,
    quota: t.midjourneys.quota,
  }),
  clockMs: 1,
  upstreamIdOf: (row) => row.mj_id,
  reportedState: (report) => ({
    status: text(report.status),
    progress: text(report.progress).slice(0, 20),
    failReason: keptText(report.failReason) ?? "",
  }),
  reportedDetails(row, report) {
    const candidates: Partial<NewDrawing> = {
      prompt_en: keptText(report.promptEn),
      description: keptText(report.description),
      start_time: millis(report.startTime),
      finish_time: millis(report.finishTime),
      image_url: keptUrl(report.imageUrl),
      buttons: keptJson(report.buttons),
      properties: keptJson(report.properties),
    };
    const changes: Partial<NewDrawing> = {};
    for (const [key, value] of Object.entries(candidates) as [keyof NewDrawing, unknown][]) {
      if (value !== undefined && value !== row[key as keyof DrawingRow]) (changes as Record<string, unknown>)[key] = value;
    }
    return changes;
  },
});

/** Every stored task with this upstream id on one channel (callbacks may only touch those). */
export function findDrawingsOfChannel(mjId: string, channelId: number): Promise<DrawingRow[]> {
  if (!mjId) return Promise.resolve([]);
  return db
    .select()
    .from(t.midjourneys)
    .where(and(eq(t.midjourneys.mj_id, mjId), eq(t.midjourneys.channel_id, channelId)));
}

/** The stored image address of a task (any user's: /mj/image serves it to whoever has the id). */
export async function findDrawingImageUrl(mjId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ image_url: t.midjourneys.image_url })
    .from(t.midjourneys)
    .where(and(eq(t.midjourneys.mj_id, mjId), ne(t.midjourneys.image_url, "")))
    .orderBy(desc(t.midjourneys.id))
    .limit(1);
  return row?.image_url;
}
