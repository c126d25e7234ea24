// POST /mj/notify: midjourney-proxy reporting a task's progress (MjNotifyEnabled). We gave the
// upstream this address with the channel id and a signature only the channel's secret can make
// (mj-upstream.ts notifySignature), so a report is believed only when the signature matches, and
// it can change only that channel's tasks. The report is applied like a poll answer.
import { AppError } from "../../../errors/app-error.ts";
import { discardUnreadBody } from "../../../http/read-body.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { optionBool } from "../../../services/options/options.ts";
import { drawings, findDrawingsOfChannel, type UpstreamDrawing } from "../../../services/tasks/drawing-tasks.ts";
import { afterDrawingChange } from "../../../services/tasks/task-events.ts";
import { newRequestId } from "../../request-id.ts";
import { mjErrorResponse, taskJson } from "../task-replies.ts";
import { channelOfTask } from "../task-routing.ts";
import { readJsonObjectWithin } from "../../request/json-body.ts";
import { notifySignature } from "./mj-upstream.ts";

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}

export async function receiveDrawingNotice(request: Request, translate: Translate, bodyLimit: number): Promise<Response> {
  const requestId = newRequestId();
  try {
    if (!optionBool("MjNotifyEnabled")) throw new AppError("forbidden", "未开启 Midjourney 回调");
    const url = new URL(request.url);
    const channelId = Number(url.searchParams.get("channel_id"));
    const channel = Number.isSafeInteger(channelId) && channelId > 0 ? await channelOfTask(channelId) : undefined;
    const signature = url.searchParams.get("signature") ?? "";
    // Signed with the channel's key of the time: a multi-key channel's first key may have changed since.
    const keys = channel ? [channel.target.key, ...(channel.keyPool?.keys ?? [])].filter(Boolean) : [];
    if (!channel || !keys.some((key) => sameText(signature, notifySignature(key, channel.id)))) {
      throw new AppError("forbidden", "回调签名无效");
    }
    const report = (await readJsonObjectWithin(request, bodyLimit)) as UpstreamDrawing;
    const mjId = typeof report.id === "string" || typeof report.id === "number" ? String(report.id) : "";
    let applied = 0;
    for (const row of await findDrawingsOfChannel(mjId, channel.id)) {
      const updated = await drawings.applyReport(row, report);
      if (updated) {
        applied++;
        await afterDrawingChange(updated);
      }
    }
    return taskJson(200, { code: 1, description: "ok", applied }, requestId);
  } catch (error) {
    await discardUnreadBody(request);
    return mjErrorResponse(error, translate, requestId);
  }
}
