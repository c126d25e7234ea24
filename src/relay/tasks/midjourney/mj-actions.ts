// What a midjourney-proxy submission asks for, read from its route and body (pure): the action
// (docs/COMPATIBILITY.md, Tasks), the model it is priced and routed by, the original task of a
// follow-up, and the prompt. Buttons of the Plus kind arrive as a customId such as
// "MJ::JOB::upsample::2::<hash>"; the older change and simple-change forms name the action.
import { AppError } from "../../../errors/app-error.ts";

export const submitKinds = [
  "imagine",
  "change",
  "simple-change",
  "describe",
  "blend",
  "modal",
  "shorten",
  "action",
  "upload-discord-images",
  "swap_face",
] as const;

export type SubmitKind = (typeof submitKinds)[number] | "insight-face";

export type Submission = {
  action: string;
  /** The model name of the action: mj_<action>, or swap_face. */
  model: string;
  /** The upstream id of the task a follow-up acts on. */
  originTaskId?: string;
  prompt: string;
};

const simpleKinds: Partial<Record<SubmitKind, string>> = {
  imagine: "IMAGINE",
  describe: "DESCRIBE",
  blend: "BLEND",
  shorten: "SHORTEN",
  "upload-discord-images": "UPLOAD",
  swap_face: "SWAP_FACE",
  "insight-face": "SWAP_FACE",
};

export function modelOfAction(action: string): string {
  return action === "SWAP_FACE" ? "swap_face" : `mj_${action.toLowerCase()}`;
}

/** The action behind a button's customId, or undefined for buttons that are not priced actions. */
export function actionOfCustomId(customId: string): string | undefined {
  const parts = customId.split("::");
  if (parts[0] !== "MJ") return undefined;
  if (parts[1] === "JOB") {
    const job = parts[2] ?? "";
    if (job.startsWith("upsample")) return "UPSCALE";
    if (job === "variation") return "VARIATION";
    if (job === "low_variation") return "LOW_VARIATION";
    if (job === "high_variation") return "HIGH_VARIATION";
    if (job.startsWith("pan_")) return "PAN";
    if (job === "reroll") return "REROLL";
    return undefined;
  }
  if (parts[1] === "Outpaint") return "ZOOM";
  if (parts[1] === "CustomZoom") return "CUSTOM_ZOOM";
  if (parts[1] === "Inpaint") return "INPAINT";
  return undefined;
}

const text = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

const unsupported = (action: string) => new AppError("invalid", "不支持的操作：{{action}}", { action }, { code: "invalid_action" });

function followUp(action: string, originTaskId: string, prompt = ""): Submission {
  if (!originTaskId) throw new AppError("invalid", "缺少原任务 ID（taskId）", undefined, { code: "task_id_missing" });
  return { action, model: modelOfAction(action), originTaskId, prompt };
}

/** Reads a submission; refuses actions it cannot price or route. */
export function readSubmission(kind: SubmitKind, body: Record<string, unknown>): Submission {
  const simple = simpleKinds[kind];
  if (simple) return { action: simple, model: modelOfAction(simple), prompt: text(body.prompt) };
  if (kind === "change") {
    const action = text(body.action).toUpperCase();
    if (!["UPSCALE", "VARIATION", "REROLL"].includes(action)) throw unsupported(action);
    return followUp(action, text(body.taskId));
  }
  if (kind === "simple-change") {
    const match = /^\s*(\S+)\s+([UV])([1-4])\s*$|^\s*(\S+)\s+(R)\s*$/i.exec(text(body.content));
    if (!match) throw unsupported(text(body.content));
    const letter = (match[2] ?? match[5] ?? "").toUpperCase();
    const action = letter === "U" ? "UPSCALE" : letter === "V" ? "VARIATION" : "REROLL";
    return followUp(action, match[1] ?? match[4] ?? "");
  }
  if (kind === "action") {
    const customId = text(body.customId);
    const action = actionOfCustomId(customId);
    if (!action) throw unsupported(customId);
    return followUp(action, text(body.taskId));
  }
  if (kind === "modal") return followUp("MODAL", text(body.taskId), text(body.prompt));
  throw unsupported(kind);
}
