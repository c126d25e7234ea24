// The usage dashboard's data (new-api's GET /api/data/, /api/data/self): hourly
// rollups per user and model. Admins see everyone (or one user by name) and may refresh the
// rollups at once instead of waiting for the next DataExportInterval.
import { Elysia } from "elysia";
import { AppError } from "../errors/app-error.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { allQuotaData, userQuotaData } from "../services/dashboard/quota-data.ts";
import { refreshQuotaData } from "../services/dashboard/quota-rollup.ts";
import { optionBool } from "../services/options/options.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

export const dataRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/data" })
    .use(auth)
    .get("/", async ({ query }) => ok(await allQuotaData(query)), { role: Role.admin })
    .get("/self", async ({ caller, query }) => ok(await userQuotaData(caller.user.id, query)), { role: Role.common })
    .post(
      "/refresh",
      async () => {
        if (!optionBool("DataExportEnabled")) throw new AppError("forbidden", "管理员未开启数据看板");
        return ok(await refreshQuotaData(), "数据看板已更新");
      },
      { role: Role.admin },
    );
