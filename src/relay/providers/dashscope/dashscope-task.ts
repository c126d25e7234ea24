// DashScope's asynchronous tasks (image generation) inside one relay call: the submit request
// (X-DashScope-Async: enable) answers a task id, then GET /api/v1/tasks/{id} is polled until the
// task SUCCEEDED or failed. The relay's abort signal bounds the whole wait (RELAY_TIMEOUT, or the
// client leaving). Every other request is one plain fetch. A client that wants b64_json gets the
// finished images downloaded and encoded here: DashScope only gives URLs.
import type { SendOptions, UpstreamRequest } from "../adaptor.ts";
import { statusOfCode } from "./dashscope-errors.ts";

/** A header this transport reads and removes: the image format the client asked for. */
export const imageFormatHeader = "x-relay-image-format";

/** Waits between polls: soon at first, then every two seconds (DashScope limits task queries). */
const pollDelaysMs = [500, 1000, 2000];

const finalStates = new Set(["SUCCEEDED", "FAILED", "CANCELED", "UNKNOWN"]);

function fetchWith(url: string, init: RequestInit, options: SendOptions): Promise<Response> {
  return fetch(url, {
    ...init,
    redirect: "manual",
    signal: options.signal,
    ...(options.proxy ? { proxy: options.proxy } : {}),
  } as RequestInit);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The task URL beside the submit URL, whatever prefix (a proxy path) the base URL has. */
export function taskUrlOf(submitUrl: string, taskId: string): string {
  const at = submitUrl.indexOf("/api/v1/");
  const root = at >= 0 ? submitUrl.slice(0, at) : new URL(submitUrl).origin;
  return `${root}/api/v1/tasks/${encodeURIComponent(taskId)}`;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function toBase64Images(task: Record<string, any>, options: SendOptions): Promise<Record<string, any>> {
  const results: Record<string, unknown>[] = [];
  for (const result of task.output?.results ?? []) {
    if (typeof result?.url !== "string") {
      results.push(result);
      continue;
    }
    const image = await fetchWith(result.url, { method: "GET" }, options);
    if (!image.ok) throw new Error(`image download failed (${image.status})`);
    results.push({ b64_image: Buffer.from(await image.arrayBuffer()).toString("base64") });
  }
  return { ...task, output: { ...task.output, results } };
}

export async function sendDashScope(request: UpstreamRequest, options: SendOptions): Promise<Response> {
  const { [imageFormatHeader]: imageFormat, ...headers } = request.headers;
  const submitted = await fetchWith(request.url, { method: request.method, headers, body: request.body }, options);
  if (headers["x-dashscope-async"] !== "enable" || !submitted.ok) return submitted;
  const ticket = (await submitted.json().catch(() => ({}))) as { output?: { task_id?: string } };
  const taskId = ticket.output?.task_id;
  if (!taskId) return json(502, { code: "InvalidTask", message: "the task was not accepted (no task_id)" });
  const pollHeaders = { authorization: headers.authorization ?? "", accept: "application/json" };
  for (let poll = 0; ; poll++) {
    await sleep(pollDelaysMs[Math.min(poll, pollDelaysMs.length - 1)]!, options.signal);
    const polled = await fetchWith(taskUrlOf(request.url, taskId), { method: "GET", headers: pollHeaders }, options);
    if (!polled.ok) return polled;
    const task = (await polled.json()) as Record<string, any>;
    const state = String(task.output?.task_status ?? "");
    if (!finalStates.has(state)) continue;
    if (state === "SUCCEEDED") return json(200, imageFormat === "b64_json" ? await toBase64Images(task, options) : task);
    const code = String(task.output?.code ?? (state === "CANCELED" ? "TaskCanceled" : "InternalError"));
    return json(statusOfCode(code), {
      code,
      message: String(task.output?.message ?? `task ${state.toLowerCase()}`),
      request_id: task.request_id,
    });
  }
}
