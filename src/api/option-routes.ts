// Site settings for the super admin (docs/COMPATIBILITY.md, Option keys). PUT takes one {key, value} like new-api's
// console, or a list of them to save several changed keys at once (all or nothing).
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { listVisibleOptions, updateOptions } from "../services/options/options.ts";
import { resetModelRatios } from "../services/options/model-ratio-reset.ts";
import { optionChangesInput, type OptionChange } from "../services/options/option-values.ts";
import { parseInput } from "../services/parse-input.ts";
import { assertMayRequireTwoFactor } from "../services/two-factor/two-factor-state.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

function changesOf(body: unknown): OptionChange[] {
  const input = parseInput(optionChangesInput, body);
  return Array.isArray(input) ? input : [input];
}

export const optionRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/option" })
    .use(auth)
    .get("/", () => ok(listVisibleOptions()), { role: Role.root })
    .put(
      "/",
      async ({ caller, actor, body }) => {
        const changes = changesOf(body);
        await assertMayRequireTwoFactor(caller.user.id, changes);
        return ok(await updateOptions(changes, actor), "保存成功");
      },
      { role: Role.root },
    )
    .post(
      "/rest_model_ratio",
      async ({ actor }) => {
        await resetModelRatios(actor);
        return ok(undefined, "重置模型倍率成功");
      },
      { role: Role.root },
    );
