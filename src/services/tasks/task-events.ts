// What follows a task's change, whoever noticed it (the poller, an upstream callback): a task
// that failed is refunded (once, see task-refund.ts), and a drawing's client hears of it: with
// MjNotifyEnabled the client's own callback URL gets the task as midjourney-proxy would have sent
// it. Client URLs are checked like every user-chosen address (no private networks) and called in
// the background.
import { fetchOutbound } from "../../http/outbound-url.ts";
import { logger } from "../../logger.ts";
import { optionBool } from "../options/options.ts";
import { drawings, type DrawingRow } from "./drawing-tasks.ts";
import { music, type MusicRow } from "./music-tasks.ts";
import { refundTask } from "./task-refund.ts";
import { TaskStatus } from "./task-states.ts";
import { drawingDto } from "./task-views.ts";

const clientCallbackTimeoutMs = 10_000;

function callClient(url: string, body: unknown): void {
  fetchOutbound(
    url,
    { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body), timeoutMs: clientCallbackTimeoutMs },
    { allowHttp: true },
  )
    .then((response) => response.body?.cancel())
    .catch(() => undefined);
}

async function refundIfFailed(tasks: typeof drawings | typeof music, row: { id: number; status: string }): Promise<void> {
  if (row.status !== TaskStatus.failure) return;
  await refundTask(tasks, row.id).catch((error) =>
    logger.error("task refund failed", { task: row.id, error: error instanceof Error ? error.message : String(error) }),
  );
}

export async function afterDrawingChange(row: DrawingRow): Promise<void> {
  await refundIfFailed(drawings, row);
  if (row.notify_hook && optionBool("MjNotifyEnabled")) callClient(row.notify_hook, drawingDto(row));
}

export async function afterMusicChange(row: MusicRow): Promise<void> {
  await refundIfFailed(music, row);
}
