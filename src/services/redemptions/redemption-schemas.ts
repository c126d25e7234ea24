// Inputs of the redemption-code API, with new-api's messages.
import { z } from "zod";
import { integerField } from "../integer-field.ts";

export const redemptionNameMessage = "兑换码名称长度必须在1-20之间";

export const createRedemptionInput = z.object({
  name: z
    .string()
    .nullish()
    .transform((value) => (value ?? "").trim()),
  quota: integerField("兑换码额度必须是大于 0 的整数", 100_000).pipe(z.number().min(1, "兑换码额度必须是大于 0 的整数")),
  count: integerField("兑换码个数必须大于0", 1).pipe(
    z.number().min(1, "兑换码个数必须大于0").max(100, "一次兑换码批量生成的个数不能大于 100"),
  ),
});

/** An update that leaves out the quota keeps the code's quota (it is not reset to the default). */
export const updateRedemptionInput = z.object({
  id: integerField("无效的参数"),
  name: z
    .string()
    .nullish()
    .transform((value) => (value ?? "").trim()),
  quota: integerField("兑换码额度必须是大于 0 的整数").pipe(z.number().min(1, "兑换码额度必须是大于 0 的整数")).optional(),
});

export const redemptionStatusInput = z.object({
  id: integerField("无效的参数"),
  status: integerField("只能启用或禁用兑换码").pipe(z.number().refine((value) => value === 1 || value === 2, "只能启用或禁用兑换码")),
});

export const redeemInput = z.object({
  key: z.string({ error: "请输入兑换码！" }).trim().min(1, "请输入兑换码！").max(64, "兑换失败，无效的兑换码"),
});
