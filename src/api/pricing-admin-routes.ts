// The super admin's price tools: the models channels serve without a price, pricing several of
// them at once (a price list in dollars), and refreshing prices from a price document at a URL
// (a preview first; `apply` writes). The rules live in services/pricing/.
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { parseInput } from "../services/parse-input.ts";
import { priceSyncInput, setModelPrices, syncPrices } from "../services/pricing/price-sync.ts";
import { unpricedModels } from "../services/pricing/unpriced-models.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

export const pricingAdminRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/pricing" })
    .use(auth)
    .get("/unpriced", async () => ok(await unpricedModels()), { role: Role.root })
    .put("/models", async ({ actor, body }) => ok(await setModelPrices(actor, body), "保存成功"), { role: Role.root })
    .post(
      "/sync",
      async ({ actor, body }) => {
        const input = parseInput(priceSyncInput, body);
        const result = await syncPrices(input, actor);
        return ok(result, input.apply ? "价格已更新" : "");
      },
      { role: Role.root },
    );
