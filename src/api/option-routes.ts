// Site settings for the super admin (spec §7 Options). PUT takes one {key, value} like new-api's
// console, or a list of them to save several changed keys at once (all or nothing).
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { listVisibleOptions, updateOptions } from "../services/options/options.ts";
import { resetModelRatios } from "../services/options/model-ratio-reset.ts";
import type { OptionChange } from "../services/options/option-values.ts";
import { invalid } from "../errors/app-error.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

function changesOf(body: unknown): OptionChange[] {
  const list = Array.isArray(body) ? body : [body];
  if (list.length === 0 || list.some((item) => typeof item !== "object" || item === null || !("key" in item))) {
    throw invalid("无效的参数");
  }
  return list as OptionChange[];
}

export const optionRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/option" })
    .use(auth)
    .get("/", () => ok(listVisibleOptions()), { role: Role.root })
    .put("/", async ({ body }) => ok(await updateOptions(changesOf(body)), "保存成功"), { role: Role.root })
    .post(
      "/rest_model_ratio",
      async () => {
        await resetModelRatios();
        return ok(undefined, "重置模型倍率成功");
      },
      { role: Role.root },
    );
