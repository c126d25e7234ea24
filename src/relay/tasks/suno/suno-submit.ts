// One Suno submission (music or lyrics), the same story as a drawing (mj-submit.ts): authenticate,
// the rate limit and balance before the body is read, read it within MAX_REQUEST_BODY_MB, admit,
// route (a continuation goes to the channel of the task it continues), hold the price of
// suno_music or suno_lyrics, submit with the channel's key (one of a multi-key channel's, the
// original task's for a continuation: task-keys.ts), then record the task and settle, or release
// when the upstream took nothing.
import { nowSeconds } from "../../../clock.ts";
import { AppError } from "../../../errors/app-error.ts";
import { discardUnreadBody } from "../../../http/read-body.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { music, sunoPlatform } from "../../../services/tasks/music-tasks.ts";
import { TaskStatus } from "../../../services/tasks/task-states.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { newRequestId } from "../../request-id.ts";
import { sendOnce } from "../../upstream/send-once.ts";
import { scrubMessage } from "../../upstream/upstream-failure.ts";
import { readJsonObjectWithin } from "../../request/json-body.ts";
import { holdTaskCharge, priceTask, releaseTaskCharge, settleTaskCharge, type TaskCharge } from "../task-charge.ts";
import { sunoErrorResponse, taskJson, upstreamAnswerError } from "../task-replies.ts";
import { sendWithChannelKeys } from "../task-keys.ts";
import { admitBeforeBody, admitTask, beginSubmission, refuseIfCut, serverStopping, taskChannel } from "../task-routing.ts";
import { parseSunoAnswer, sunoActions, sunoBody, sunoPrompts, sunoRequest, type SunoAction } from "./suno-upstream.ts";

const submitTimeoutMs = 60_000;

export type SunoSubmission = {
  request: Request;
  action: string;
  authenticate: () => Promise<RelayCaller>;
  translate: Translate;
  /** MAX_REQUEST_BODY_MB, in bytes. */
  bodyLimit: number;
};

export async function submitSuno(input: SunoSubmission): Promise<Response> {
  const requestId = newRequestId();
  const startedAt = performance.now();
  let charge: TaskCharge | undefined;
  const scope = beginSubmission(requestId);
  try {
    if (!scope) throw serverStopping();
    const caller = await input.authenticate();
    const action = input.action.toLowerCase();
    if (!Object.hasOwn(sunoActions, action))
      throw new AppError("invalid", "不支持的操作：{{action}}", { action: input.action }, { code: "invalid_action" });
    const upper = sunoActions[action as SunoAction];
    await admitBeforeBody(caller, scope);
    const body = await readJsonObjectWithin(input.request, input.bodyLimit);
    const sent = sunoBody(action as SunoAction, body);
    const model = `suno_${action}`;
    admitTask(caller, model, sunoPrompts(body));
    let origin: { channel_id: number; key_index: number } | undefined;
    if (typeof body.continue_clip_id === "string" && body.continue_clip_id !== "") {
      origin = await music.find(typeof body.task_id === "string" ? body.task_id : "", { userId: caller.userId, admin: false });
      if (!origin) throw new AppError("not_found", "任务不存在", undefined, { code: "task_not_exist" });
    }
    const channel = await taskChannel(caller, model, origin?.channel_id);
    charge = priceTask(caller, model, requestId, startedAt);
    await holdTaskCharge(caller, charge);

    const { answer, target, keyIndex } = await sendWithChannelKeys(channel, {
      send: (target) =>
        sendOnce(sunoRequest(target, `/suno/submit/${action}`, sent), target, submitTimeoutMs, undefined, undefined, scope.cut),
      fixedKeyIndex: origin?.key_index,
    });
    refuseIfCut(scope, answer);
    const parsed = parseSunoAnswer(answer.text);
    if (!parsed) throw upstreamAnswerError(answer, target);
    const taskId = typeof parsed.data === "string" ? parsed.data : "";
    if (answer.status < 200 || answer.status >= 300 || parsed.code !== "success" || !taskId) {
      await releaseTaskCharge(charge);
      const status = Math.max(answer.status, 400);
      // A "success" without a task id took nothing either.
      const code = parsed.code === "success" ? "upstream_error" : parsed.code;
      return taskJson(status, { code, message: scrubMessage(parsed.message, target), data: null }, requestId);
    }
    const row = await music.insert({
      task_id: taskId,
      platform: sunoPlatform,
      user_id: caller.userId,
      token_id: caller.tokenId,
      channel_id: channel.id,
      key_index: keyIndex,
      quota: charge.quota,
      request_id: requestId,
      action: upper,
      status: TaskStatus.submitted,
      progress: "0%",
      submit_time: nowSeconds(),
      properties: JSON.stringify({ input: sunoPrompts(body).join(" ").slice(0, 1000) }),
    });
    const charged = await settleTaskCharge(caller, charge, channel, `操作 ${upper}，ID ${taskId}`); // i18n-exempt: stored log text
    if (charged !== charge.quota) await music.setQuota(row.id, charged ?? 0);
    return taskJson(200, { code: "success", message: "", data: taskId }, requestId);
  } catch (error) {
    await releaseTaskCharge(charge);
    await discardUnreadBody(input.request);
    return sunoErrorResponse(error, input.translate, requestId);
  } finally {
    scope?.flight.end();
  }
}
