// What a token form or API client may send, and the token form's rules with their
// messages. The server is where the rules live; the console only helps fill the form.
import { isIP } from "node:net";
import { z } from "zod";
import { invalidField } from "../../errors/app-error.ts";
import { integerField } from "../integer-field.ts";
import { parseInput } from "../parse-input.ts";
import { captureUntilField, checkCaptureUntil } from "../captures/capture-window.ts";
import { isQuotaPeriod, quotaPeriods, type QuotaPeriod } from "./quota-period.ts";

export const tokenMessages = {
  nameRequired: "令牌名称不能为空",
  nameTooLong: "令牌名称过长",
  expiry: "过期时间格式错误！",
  quota: "额度必须是非负整数",
  count: "令牌数量必须是 1 到 100 之间的整数",
  allowIp: "IP 白名单格式错误：{{entry}}",
  status: "无效的令牌状态",
  quotaPeriod: "额度周期必须是 day、week、month 或留空",
  periodQuota: "周期额度必须是非负整数",
  rateLimit: "速率和并发限制必须是非负整数",
} as const;

const maxTokenName = 30;
const maxBatchCount = 100;

const booleanLike = z
  .union([z.boolean(), z.literal("true"), z.literal("false"), z.literal(1), z.literal(0)])
  .transform((value) => value === true || value === "true" || value === 1);
const listOrCsv = z.union([z.string(), z.array(z.string())]);

export const tokenFields = z.object({
  id: z.coerce.number().int().optional(),
  name: z.string().nullish(),
  expired_time: integerField(tokenMessages.expiry).nullish(),
  remain_quota: integerField(tokenMessages.quota).nullish(),
  unlimited_quota: booleanLike.nullish(),
  model_limits_enabled: booleanLike.nullish(),
  model_limits: listOrCsv.nullish(),
  allow_ips: z.string().nullish(),
  group: z.string().nullish(),
  quota_period: z.enum(quotaPeriods, { error: tokenMessages.quotaPeriod }).nullish(),
  period_quota: integerField(tokenMessages.periodQuota).nullish(),
  rpm_limit: integerField(tokenMessages.rateLimit).nullish(),
  tpm_limit: integerField(tokenMessages.rateLimit).nullish(),
  concurrency_limit: integerField(tokenMessages.rateLimit).nullish(),
  status: integerField(tokenMessages.status).nullish(),
  count: integerField(tokenMessages.count).nullish(),
  capture_until: captureUntilField(),
});

export type RawToken = z.output<typeof tokenFields>;

export type TokenFields = {
  name: string;
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  /** The request inspector's window (capture-window.ts): unix seconds, 0 = off. */
  capture_until: number;
  quota_period: string;
  period_quota: number;
  rpm_limit: number;
  tpm_limit: number;
  concurrency_limit: number;
};

export function parseTokenBody(body: unknown): RawToken {
  return parseInput(tokenFields, body, true);
}

export function checkName(value: string | null | undefined): string {
  const name = (value ?? "").trim();
  if (!name) throw invalidField("name", tokenMessages.nameRequired);
  if ([...name].length > maxTokenName) throw invalidField("name", tokenMessages.nameTooLong);
  return name;
}

/** Unix seconds in the future or the past, or -1 for never. */
function checkExpiry(value: number): number {
  if (value !== -1 && value < 0) throw invalidField("expired_time", tokenMessages.expiry);
  return value;
}

function checkQuota(value: number): number {
  if (value < 0) throw invalidField("remain_quota", tokenMessages.quota);
  return value;
}

function checkPeriod(value: string): QuotaPeriod {
  const period = value.trim();
  if (!isQuotaPeriod(period)) throw invalidField("quota_period", tokenMessages.quotaPeriod);
  return period;
}

function checkNonNegative(value: number, field: string, message: string): number {
  if (value < 0) throw invalidField(field, message);
  return value;
}

/** A limit given, or the current one; 0 means none. */
const limitOr = (field: string, value: number | null | undefined, current: number) =>
  value == null ? current : checkNonNegative(value, field, tokenMessages.rateLimit);

function modelLimitsOf(value: string | string[] | null | undefined): string {
  const parts = Array.isArray(value) ? value.flatMap((item) => item.split(",")) : (value ?? "").split(",");
  return [...new Set(parts.map((part) => part.trim()).filter(Boolean))].join(",");
}

/** One address or CIDR range per line; commas and blanks tolerated; empty means no limit. */
function normalizeAllowIps(text: string | null | undefined): string {
  const entries = (text ?? "")
    .split(/[\n,]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, prefix, extra] = entry.split("/");
    const version = isIP(address ?? "");
    const maxPrefix = version === 4 ? 32 : 128;
    const prefixValid = prefix === undefined || (/^\d+$/.test(prefix) && Number(prefix) <= maxPrefix);
    if (version === 0 || !prefixValid || extra !== undefined) throw invalidField("allow_ips", tokenMessages.allowIp, { entry });
  }
  return [...new Set(entries)].join("\n");
}

/** A complete token for creation, with new-api's defaults (quota 500000, never expires; docs/COMPATIBILITY.md, Token keys). */
export function tokenForCreate(raw: RawToken, editorRole: number): TokenFields {
  return {
    name: checkName(raw.name),
    expired_time: checkExpiry(raw.expired_time ?? -1),
    remain_quota: checkQuota(raw.remain_quota ?? 500000),
    unlimited_quota: raw.unlimited_quota ?? false,
    model_limits_enabled: raw.model_limits_enabled ?? false,
    model_limits: modelLimitsOf(raw.model_limits),
    allow_ips: normalizeAllowIps(raw.allow_ips),
    group: (raw.group ?? "").trim(),
    capture_until: checkCaptureUntil(raw.capture_until, 0, editorRole),
    quota_period: checkPeriod(raw.quota_period ?? ""),
    period_quota: checkNonNegative(raw.period_quota ?? 0, "period_quota", tokenMessages.periodQuota),
    rpm_limit: limitOr("rpm_limit", raw.rpm_limit, 0),
    tpm_limit: limitOr("tpm_limit", raw.tpm_limit, 0),
    concurrency_limit: limitOr("concurrency_limit", raw.concurrency_limit, 0),
  };
}

/** The fields a full update sets (new-api replaces all editable fields; status stays). */
export function tokenChanges(raw: RawToken, current: TokenFields, editorRole: number): TokenFields {
  return {
    name: raw.name == null ? current.name : checkName(raw.name),
    expired_time: raw.expired_time == null ? current.expired_time : checkExpiry(raw.expired_time),
    remain_quota: raw.remain_quota == null ? current.remain_quota : checkQuota(raw.remain_quota),
    unlimited_quota: raw.unlimited_quota ?? current.unlimited_quota,
    model_limits_enabled: raw.model_limits_enabled ?? current.model_limits_enabled,
    model_limits: raw.model_limits == null ? current.model_limits : modelLimitsOf(raw.model_limits),
    allow_ips: raw.allow_ips == null ? current.allow_ips : normalizeAllowIps(raw.allow_ips),
    group: raw.group == null ? current.group : raw.group.trim(),
    capture_until: checkCaptureUntil(raw.capture_until, Number(current.capture_until), editorRole),
    quota_period: raw.quota_period == null ? current.quota_period : checkPeriod(raw.quota_period),
    period_quota:
      raw.period_quota == null ? current.period_quota : checkNonNegative(raw.period_quota, "period_quota", tokenMessages.periodQuota),
    rpm_limit: limitOr("rpm_limit", raw.rpm_limit, current.rpm_limit),
    tpm_limit: limitOr("tpm_limit", raw.tpm_limit, current.tpm_limit),
    concurrency_limit: limitOr("concurrency_limit", raw.concurrency_limit, current.concurrency_limit),
  };
}

export function batchCountOf(raw: RawToken): number {
  const count = raw.count ?? 1;
  if (count < 1 || count > maxBatchCount) throw invalidField("count", tokenMessages.count);
  return count;
}
