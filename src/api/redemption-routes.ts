// Redemption codes for admins (spec §7 Redemption).
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import {
  createRedemptions,
  deleteRedemption,
  getRedemption,
  listRedemptions,
  searchRedemptions,
  setRedemptionStatus,
  updateRedemption,
} from "../services/redemptions/redemption-admin.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

const truthy = (value: unknown) => value !== undefined && value !== "" && value !== "false" && value !== "0";

export const redemptionRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/redemption" })
    .use(auth)
    .get("/", async ({ query }) => ok(await listRedemptions(query)), { role: Role.admin })
    .get("/search", async ({ query }) => ok(await searchRedemptions(query)), { role: Role.admin })
    .get("/:id", async ({ params }) => ok(await getRedemption(Number(params.id))), { role: Role.admin })
    .post("/", async ({ caller, body }) => ok(await createRedemptions(caller.user.id, body)), { role: Role.admin })
    .put(
      "/",
      async ({ body, query }) => ok(truthy(query.status_only) ? await setRedemptionStatus(body) : await updateRedemption(body)),
      { role: Role.admin },
    )
    .delete("/:id", async ({ params }) => {
      await deleteRedemption(Number(params.id));
      return ok();
    }, { role: Role.admin });
