// One drawing submission, as a story:
//
//   1. authenticate   the token (sk- key in Authorization, or mj-api-secret); then, before the
//                     body is read, the model rate limit and a balance left (task-routing.ts)
//   2. read           the body within MAX_REQUEST_BODY_MB (request/json-body.ts); the action, its
//                     model and prompt; a follow-up's original task (own tasks only)
//   3. admit          model limits, sensitive words
//   4. route          a channel for the model, or the original task's channel for a follow-up
//   5. hold           the action's price, from user and token
//   6. submit         upstream with the channel's key as mj-api-secret (one of a multi-key
//                     channel's, the original task's for a follow-up: task-keys.ts)
//   7. record         the task row; settle the charge if the task was accepted (code 1, or 22:
//                     queued by the proxy, a real task that will run), release it otherwise (21:
//                     an existing task or one waiting for a window, whose modal is charged when
//                     it comes; any other code: nothing submitted)
//
// The upstream's answer goes back to the client as it came, its code included.
import { nowMs } from "../../../clock.ts";
import { AppError } from "../../../errors/app-error.ts";
import { discardUnreadBody } from "../../../http/read-body.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { optionBool, optionText } from "../../../services/options/options.ts";
import { drawings, type DrawingRow, type NewDrawing } from "../../../services/tasks/drawing-tasks.ts";
import { finishedProgress, TaskStatus } from "../../../services/tasks/task-states.ts";
import { disableChannelAutomatically } from "../../channels/channel-health.ts";
import type { ChannelSnapshot } from "../../channels/channel-snapshot.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { newRequestId } from "../../request-id.ts";
import { sendOnce, type PlainAnswer } from "../../upstream/send-once.ts";
import { scrubMessage } from "../../upstream/upstream-failure.ts";
import { holdTaskCharge, priceTask, releaseTaskCharge, settleTaskCharge, type TaskCharge } from "../task-charge.ts";
import { mjErrorResponse, taskJson, upstreamAnswerError } from "../task-replies.ts";
import { readJsonObjectWithin } from "../../request/json-body.ts";
import { sendWithChannelKeys } from "../task-keys.ts";
import { admitBeforeBody, admitTask, beginSubmission, refuseIfCut, serverStopping, taskChannel } from "../task-routing.ts";
import { readSubmission, type Submission, type SubmitKind } from "./mj-actions.ts";
import {
  mjRequest,
  notifySignature,
  parseSubmitAnswer,
  SubmitCode,
  submittedTaskId,
  upstreamBody,
  type SubmitAnswer,
} from "./mj-upstream.ts";

const submitTimeoutMs = 60_000;

/** midjourney-proxy's code 3: no account of this key can draw (the key's own failure). */
function noAccountReason(answer: PlainAnswer): string | undefined {
  const parsed = answer.status >= 200 && answer.status < 300 ? parseSubmitAnswer(answer.text) : undefined;
  return parsed?.code === SubmitCode.noAccount ? parsed.description || "no available account" : undefined;
}

export type DrawingSubmission = {
  request: Request;
  kind: SubmitKind;
  /** The upstream path: the client's path without a /mj-{mode} prefix. */
  path: string;
  authenticate: () => Promise<RelayCaller>;
  translate: Translate;
  /** MAX_REQUEST_BODY_MB, in bytes. */
  bodyLimit: number;
};

async function originOf(caller: RelayCaller, submission: Submission): Promise<DrawingRow | undefined> {
  if (!submission.originTaskId) return undefined;
  const origin = await drawings.find(submission.originTaskId, { userId: caller.userId, admin: false });
  if (!origin) throw new AppError("not_found", "任务不存在", undefined, { code: "task_not_found" });
  if (optionBool("MjActionCheckSuccessEnabled") && submission.action !== "MODAL" && origin.status !== TaskStatus.success) {
    throw new AppError("invalid", "原任务尚未成功，不能进行该操作", undefined, { code: "task_status_not_success" });
  }
  return origin;
}

function notifyUrl(channel: ChannelSnapshot): string | undefined {
  const address = optionText("ServerAddress");
  if (!optionBool("MjNotifyEnabled") || !address) return undefined;
  return `${address}/mj/notify?channel_id=${channel.id}&signature=${notifySignature(channel.target.key, channel.id)}`;
}

/** The stored state of a task right after its submission answer. */
function initialState(answer: SubmitAnswer, action: string): Pick<NewDrawing, "status" | "progress" | "fail_reason"> {
  if (answer.code === SubmitCode.submitted) {
    // An upload is done when it is answered: there is nothing to follow.
    if (action === "UPLOAD") return { status: TaskStatus.success, progress: finishedProgress, fail_reason: "" };
    return { status: TaskStatus.submitted, progress: "0%", fail_reason: "" };
  }
  // Queued by the proxy: accepted, and followed by polling like a submitted task.
  if (answer.code === SubmitCode.inQueue) return { status: TaskStatus.submitted, progress: "0%", fail_reason: "" };
  if (answer.code === SubmitCode.existsOrWaiting) {
    const reported = typeof answer.properties.status === "string" ? answer.properties.status : "";
    if (reported === TaskStatus.success) return { status: TaskStatus.success, progress: finishedProgress, fail_reason: "" };
    return { status: TaskStatus.modal, progress: "0%", fail_reason: "" };
  }
  return { status: TaskStatus.failure, progress: finishedProgress, fail_reason: answer.description || `code ${answer.code}` };
}

export async function submitDrawing(input: DrawingSubmission): Promise<Response> {
  const requestId = newRequestId();
  const startedAt = performance.now();
  let charge: TaskCharge | undefined;
  const scope = beginSubmission(requestId);
  try {
    if (!scope) throw serverStopping();
    const caller = await input.authenticate();
    await admitBeforeBody(caller, scope);
    const body = await readJsonObjectWithin(input.request, input.bodyLimit);
    const submission = readSubmission(input.kind, body);
    admitTask(caller, submission.model, [submission.prompt]);
    const origin = await originOf(caller, submission);
    const channel = await taskChannel(caller, submission.model, origin?.channel_id);
    charge = priceTask(caller, submission.model, requestId, startedAt);
    await holdTaskCharge(caller, charge);

    const rules = {
      accountFilter: optionBool("MjAccountFilterEnabled"),
      modeClear: optionBool("MjModeClearEnabled"),
      notifyUrl: notifyUrl(channel),
    };
    const sent = upstreamBody(body, rules);
    const { answer, target, keyIndex } = await sendWithChannelKeys(channel, {
      send: (target) => sendOnce(mjRequest(target, input.path, sent), target, submitTimeoutMs, undefined, undefined, scope.cut),
      deadAccount: noAccountReason,
      fixedKeyIndex: origin?.key_index,
    });
    refuseIfCut(scope, answer);
    const parsed = answer.status >= 200 && answer.status < 300 ? parseSubmitAnswer(answer.text) : undefined;
    if (!parsed) throw upstreamAnswerError(answer, target);
    parsed.description = scrubMessage(parsed.description, target);

    const taken = parsed.code === SubmitCode.submitted || parsed.code === SubmitCode.inQueue;
    const mjId = submittedTaskId(parsed);
    const hook = typeof body.notifyHook === "string" && optionBool("MjNotifyEnabled") ? body.notifyHook : "";
    const row = await drawings.insert({
      code: parsed.code,
      user_id: caller.userId,
      token_id: caller.tokenId,
      action: submission.action,
      mj_id: mjId,
      prompt: submission.prompt,
      description: parsed.description,
      submit_time: nowMs(),
      channel_id: channel.id,
      quota: taken ? charge.quota : 0,
      request_id: taken ? requestId : "",
      notify_hook: hook,
      key_index: keyIndex,
      properties: JSON.stringify(parsed.properties),
      ...initialState(parsed, submission.action),
    });
    if (taken) {
      const charged = await settleTaskCharge(caller, charge, channel, `操作 ${submission.action}，ID ${mjId}`); // i18n-exempt: stored log text
      if (charged !== charge.quota) await drawings.setQuota(row.id, charged ?? 0);
    } else {
      await releaseTaskCharge(charge);
      // A multi-key channel's keys were disabled one by one (task-keys.ts); the last one takes the channel.
      if (parsed.code === SubmitCode.noAccount && keyIndex < 0)
        void disableChannelAutomatically(channel, parsed.description || "no available account");
    }
    return taskJson(200, { ...JSON.parse(answer.text), description: parsed.description }, requestId);
  } catch (error) {
    await releaseTaskCharge(charge);
    await discardUnreadBody(input.request);
    return mjErrorResponse(error, input.translate, requestId);
  } finally {
    scope?.flight.end();
  }
}
