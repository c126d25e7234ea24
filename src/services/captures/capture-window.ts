// The rules of `capture_until` on a token or a user (issue 27, request inspector): unix seconds
// until which the calls are kept, at most 7 days ahead, 0 for off. Only admins turn it on, and
// only while the site's switch (RequestCaptureEnabled) is on.
import { z } from "zod";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { integerField } from "../integer-field.ts";
import { optionBool } from "../options/options.ts";
import { isAdmin } from "../users/roles.ts";

const maxCaptureSeconds = 7 * 86_400;

export const captureMessages = {
  format: "请求记录截止时间必须是整数（Unix 秒），0 表示关闭",
  range: "请求记录截止时间必须在现在之后的 7 天之内，0 表示关闭",
  adminOnly: "只有管理员可以开启请求记录",
  switchedOff: "请求记录功能已在系统设置中关闭，请先开启",
  notFound: "该日志没有请求记录",
} as const;

/**
 * The zod field of `capture_until` in token and user bodies. The console's forms send an empty
 * picker as "": that is "not sent" (the stored window stays), so forms that never touch the field
 * save as before.
 */
export const captureUntilField = () =>
  z.preprocess((value) => (value === "" ? undefined : value), integerField(captureMessages.format).nullish());

/** Whether the site lets captures run at all (the settings' switch, off by default). */
export function captureSwitchOn(): boolean {
  return optionBool("RequestCaptureEnabled");
}

/**
 * The `capture_until` to store: the current value when none was sent or it is sent back
 * unchanged (a form resending a window that already ended), 0 to turn it off, else a moment
 * after now and at most 7 days ahead, set by an admin while the site's switch is on.
 */
export function checkCaptureUntil(value: number | null | undefined, current: number, editorRole: number): number {
  if (value == null || value === current || value === 0) return value ?? current;
  if (!isAdmin(editorRole)) throw invalid(captureMessages.adminOnly);
  const now = nowSeconds();
  if (value <= now || value > now + maxCaptureSeconds) throw invalid(captureMessages.range);
  if (!captureSwitchOn()) throw invalid(captureMessages.switchedOff);
  return value;
}

/** Whether a call of this caller is kept: its window (token's or user's) is open and the switch is on. */
export function captureOpen(captureUntil: number): boolean {
  return captureUntil !== 0 && captureUntil > nowSeconds() && captureSwitchOn();
}
