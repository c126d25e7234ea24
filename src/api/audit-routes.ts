// /api/audit/: the audit trail for admins and root (issue 27). Read only: no route edits or
// deletes an entry; the retention job (jobs/audit-retention.ts) is the only thing that removes them.
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { auditFilterFromQuery, queryAudit } from "../services/audit/audit-queries.ts";
import { pagingOf } from "../services/paging.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

export const auditRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/audit" })
    .use(auth)
    .get("/", async ({ query }) => ok(await queryAudit(auditFilterFromQuery(query), pagingOf(query))), { role: Role.admin });
