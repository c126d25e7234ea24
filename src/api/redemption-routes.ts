// Redemption codes for admins: list, search, create, edit, status and delete.
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
import { oneBasedPaging, queryBool, type Query } from "./query-values.ts";

/** new-api's object paging: {items, page, page_size, total}. */
async function page(query: Query, keyword?: string) {
  const paging = oneBasedPaging(query);
  const { items, total } = keyword === undefined ? await listRedemptions(paging) : await searchRedemptions(keyword, paging);
  return ok({ items, page: paging.page, page_size: paging.pageSize, total });
}

export const redemptionRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/redemption" })
    .use(auth)
    .get("/", ({ query }) => page(query), { role: Role.admin })
    .get("/search", ({ query }) => page(query, query.keyword ?? ""), { role: Role.admin })
    .get("/:id", async ({ params }) => ok(await getRedemption(Number(params.id))), { role: Role.admin })
    .post("/", async ({ actor, body }) => ok(await createRedemptions(actor, body)), { role: Role.admin })
    .put(
      "/",
      async ({ actor, body, query }) =>
        ok(queryBool(query.status_only) ? await setRedemptionStatus(actor, body) : await updateRedemption(actor, body)),
      { role: Role.admin },
    )
    .delete(
      "/:id",
      async ({ actor, params }) => {
        await deleteRedemption(actor, Number(params.id));
        return ok();
      },
      { role: Role.admin },
    );
