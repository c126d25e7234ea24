// Inputs of the account endpoints, with new-api's messages (docs/COMPATIBILITY.md, Messages).
import { z } from "zod";
import { captureUntilField } from "../captures/capture-window.ts";
import { integerField } from "../integer-field.ts";
import { optionalText, requiredText } from "../parse-input.ts";

export const passwordRule = z.string().min(8, "密码长度不得小于 8 位！").max(20, "密码长度不得超过 20 位！");

export const loginInput = z.object({
  username: requiredText("请输入用户名和密码！"),
  password: z.string({ error: "请输入用户名和密码！" }).min(1, "请输入用户名和密码！"),
  /** Only asked of root with the default password from another address (onboarding/setup-code.ts). */
  setup_code: z.string().max(64).optional().catch(undefined),
});

export const registerInput = z
  .object({
    username: requiredText("用户名和密码不能为空！").pipe(z.string().max(12, "用户名长度不得超过 12 个字符！")),
    password: z.string({ error: "用户名和密码不能为空！" }).min(1, "用户名和密码不能为空！").pipe(passwordRule),
    password2: z.string().nullish(),
    email: optionalText().pipe(z.string().trim().max(128, "邮箱地址过长！")),
    verification_code: optionalText(),
    aff_code: optionalText().pipe(z.string().trim().max(32, "无效的邀请码")),
  })
  .refine((input) => input.password2 == null || input.password2 === input.password, {
    message: "两次输入的密码不一致",
  });

export const updateSelfInput = z
  .object({
    display_name: z.string().trim().max(20, "显示名称不得超过 20 个字符！").optional(),
    password: z.string().optional(),
    password2: z.string().optional(),
    original_password: z.string().optional(),
  })
  .refine((input) => input.password2 === undefined || input.password2 === input.password, {
    message: "两次输入的密码不一致！",
  });

/** Quota fields are parsed to an integer; absent means unchanged. */
const optionalInteger = (message: string) => integerField(message).optional();

const positiveId = z.coerce.number({ error: "无效的参数" }).int("无效的参数").positive("无效的参数");

export const createUserInput = z.object({
  username: requiredText("用户名和密码不能为空！").pipe(z.string().max(12, "用户名长度不得超过 12 个字符！")),
  password: z.string({ error: "用户名和密码不能为空！" }).min(1, "用户名和密码不能为空！").pipe(passwordRule),
  display_name: optionalText().pipe(z.string().trim().max(20, "显示名称不得超过 20 个字符！")),
  role: optionalInteger("无效的参数"),
});

export const updateUserInput = z.object({
  id: positiveId,
  username: z.string().trim().min(1, "用户名不能为空！").max(12, "用户名长度不得超过 12 个字符！").optional(),
  display_name: z.string().trim().max(20, "显示名称不得超过 20 个字符！").optional(),
  password: z.string().nullish(),
  group: z.string().trim().min(1, "分组不存在").max(64, "分组不存在").optional(),
  quota: optionalInteger("额度必须是整数"),
  /** Added to the current quota (may be negative); preferred over `quota` by the console. */
  add_quota: optionalInteger("额度必须是整数"),
  role: optionalInteger("无效的参数"),
  /** The request inspector's window for all the user's calls (capture-window.ts). */
  capture_until: captureUntilField(),
});

export const manageUserInput = z.object({
  id: positiveId,
  action: z.enum(["promote", "demote", "disable", "enable", "delete"], { error: "无效的参数" }),
});

export const affTransferInput = z.object({ quota: integerField("无效的参数") });

/** POST /api/user/self/password: the first password of an account that has none. */
export const firstPasswordInput = z
  .object({ password: z.string({ error: "用户名和密码不能为空！" }).pipe(passwordRule), password2: z.string().optional() })
  .refine((input) => input.password2 === undefined || input.password2 === input.password, { message: "两次输入的密码不一致！" });
