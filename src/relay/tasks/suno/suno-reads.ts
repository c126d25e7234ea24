// Reading Suno tasks: /suno/fetch answers from our store (kept current by the poller), never from
// the upstream; a user reads their own tasks, an admin any.
import { AppError } from "../../../errors/app-error.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { music } from "../../../services/tasks/music-tasks.ts";
import { musicDto } from "../../../services/tasks/task-views.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { newRequestId } from "../../request-id.ts";
import { readJsonObjectWithin } from "../../request/json-body.ts";
import { sunoErrorResponse, taskJson } from "../task-replies.ts";

/** `bodyLimit`: MAX_REQUEST_BODY_MB, in bytes. */
type Read = { authenticate: () => Promise<RelayCaller>; translate: Translate; bodyLimit: number };

async function answer(read: Read, produce: (caller: RelayCaller) => Promise<unknown>): Promise<Response> {
  const requestId = newRequestId();
  try {
    const data = await produce(await read.authenticate());
    return taskJson(200, { code: "success", message: "", data }, requestId);
  } catch (error) {
    return sunoErrorResponse(error, read.translate, requestId);
  }
}

const readerOf = (caller: RelayCaller) => ({ userId: caller.userId, admin: isAdmin(caller.role) });

export function fetchSunoTask(read: Read, taskId: string): Promise<Response> {
  return answer(read, async (caller) => {
    const row = await music.find(taskId, readerOf(caller));
    if (!row) throw new AppError("not_found", "任务不存在", undefined, { code: "task_not_exist" });
    return musicDto(row);
  });
}

export function fetchSunoTasks(read: Read, request: Request): Promise<Response> {
  return answer(read, async (caller) => {
    const body = await readJsonObjectWithin(request, read.bodyLimit);
    const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === "string") : [];
    return (await music.findMany(ids, readerOf(caller))).map(musicDto);
  });
}
