// Reading Suno tasks: /suno/fetch answers from our store (kept current by the poller), never from
// the upstream; a user reads their own tasks, an admin any.
import { AppError } from "../../../errors/app-error.ts";
import type { Translate } from "../../../i18n/i18n.ts";
import { findAsyncTask, findAsyncTasks } from "../../../services/tasks/async-task-store.ts";
import { asyncTaskDto } from "../../../services/tasks/task-views.ts";
import { isAdmin } from "../../../services/users/roles.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { newRequestId } from "../../request-id.ts";
import { readJsonObject } from "../task-body.ts";
import { sunoErrorResponse, taskJson } from "../task-replies.ts";
import { sunoPlatform } from "./suno-submit.ts";

type Read = { authenticate: () => Promise<RelayCaller>; translate: Translate };

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
    const row = await findAsyncTask(taskId, readerOf(caller), sunoPlatform);
    if (!row) throw new AppError("not_found", "任务不存在", undefined, { code: "task_not_exist" });
    return asyncTaskDto(row);
  });
}

export function fetchSunoTasks(read: Read, request: Request): Promise<Response> {
  return answer(read, async (caller) => {
    const body = await readJsonObject(request);
    const ids = Array.isArray(body.ids) ? body.ids.filter((id): id is string => typeof id === "string") : [];
    return (await findAsyncTasks(ids, readerOf(caller), sunoPlatform)).map(asyncTaskDto);
  });
}
