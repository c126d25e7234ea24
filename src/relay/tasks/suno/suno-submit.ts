// One Suno submission (music or lyrics), the same story as a drawing (mj-submit.ts): authenticate,
// admit, route (a continuation goes to the channel of the task it continues), hold the price of
// suno_music or suno_lyrics, submit with the channel's key, then record the task and settle, or
// release when the upstream took nothing.
import { nowSeconds } from "../../../clock.ts";
import { AppError } from "../../../errors/app-error.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { findAsyncTask, insertAsyncTask, setAsyncTaskQuota } from "../../../services/tasks/async-task-store.ts";
import { TaskStatus } from "../../../services/tasks/task-states.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { newRequestId } from "../../request-id.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { scrubMessage } from "../../upstream/upstream-failure.ts";
import { readJsonObject } from "../task-body.ts";
import { holdTaskCharge, priceTask, releaseTaskCharge, settleTaskCharge, type TaskCharge } from "../task-charge.ts";
import { sunoErrorResponse, taskJson, upstreamAnswerError } from "../task-replies.ts";
import { admitTask, taskChannel } from "../task-routing.ts";
import { parseSunoAnswer, sunoActions, sunoBody, sunoPrompts, sunoRequest, type SunoAction } from "./suno-upstream.ts";

export const sunoPlatform = "suno";
const submitTimeoutMs = 60_000;

export type SunoSubmission = { request: Request; action: string; authenticate: () => Promise<RelayCaller>; translate: Translate };

export async function submitSuno(input: SunoSubmission): Promise<Response> {
  const requestId = newRequestId();
  const startedAt = performance.now();
  let charge: TaskCharge | undefined;
  try {
    const caller = await input.authenticate();
    const action = input.action.toLowerCase();
    if (!Object.hasOwn(sunoActions, action)) throw new AppError("invalid", "不支持的操作：{{action}}", { action: input.action }, { code: "invalid_action" });
    const upper = sunoActions[action as SunoAction];
    const body = await readJsonObject(input.request);
    const sent = sunoBody(action as SunoAction, body);
    const model = `suno_${action}`;
    await admitTask(caller, model, sunoPrompts(body));
    let originChannel: number | undefined;
    if (typeof body.continue_clip_id === "string" && body.continue_clip_id !== "") {
      const origin = await findAsyncTask(typeof body.task_id === "string" ? body.task_id : "", { userId: caller.userId, admin: false }, sunoPlatform);
      if (!origin) throw new AppError("not_found", "任务不存在", undefined, { code: "task_not_exist" });
      originChannel = origin.channel_id;
    }
    const channel = await taskChannel(caller, model, originChannel);
    charge = priceTask(caller, model, requestId, startedAt);
    await holdTaskCharge(caller, charge);

    const answer = await sendOnce(sunoRequest(channel.target, `/suno/submit/${action}`, sent), channel.target, submitTimeoutMs);
    const parsed = parseSunoAnswer(answer.text);
    if (!parsed) throw upstreamAnswerError(answer, channel.target);
    const taskId = typeof parsed.data === "string" ? parsed.data : "";
    if (answer.status < 200 || answer.status >= 300 || parsed.code !== "success" || !taskId) {
      await releaseTaskCharge(charge);
      const status = answer.status >= 400 ? answer.status : 400;
      // A "success" without a task id took nothing either.
      const code = parsed.code === "success" ? "upstream_error" : parsed.code;
      return taskJson(status, { code, message: scrubMessage(parsed.message, channel.target), data: null }, requestId);
    }
    const row = await insertAsyncTask({
      task_id: taskId,
      platform: sunoPlatform,
      user_id: caller.userId,
      token_id: caller.tokenId,
      channel_id: channel.id,
      quota: charge.quota,
      request_id: requestId,
      action: upper,
      status: TaskStatus.submitted,
      progress: "0%",
      submit_time: nowSeconds(),
      properties: JSON.stringify({ input: sunoPrompts(body).join(" ").slice(0, 1000) }),
    });
    if (!(await settleTaskCharge(caller, charge, channel, `操作 ${upper}，ID ${taskId}`))) await setAsyncTaskQuota(row.id, 0); // i18n-exempt: stored log text
    return taskJson(200, { code: "success", message: "", data: taskId }, requestId);
  } catch (error) {
    await releaseTaskCharge(charge);
    return sunoErrorResponse(error, input.translate, requestId);
  }
}
