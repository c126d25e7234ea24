// /api/log/*: usage logs (docs/COMPATIBILITY.md, Log types, Paging). Pages count from 1 and answer
// {items, page, page_size, total}; admins read the whole site, users their own entries.
import { Elysia } from "elysia";
import { requestTranslator } from "../http/request-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { deleteLogsBefore } from "../services/logs/log-cleanup.ts";
import { logFilterFromQuery } from "../services/logs/log-filter.ts";
import { logStat, queryLogs, toLogView, type LogFilter } from "../services/logs/log-queries.ts";
import { Role } from "../services/users/roles.ts";
import { readCapture } from "../services/captures/capture-store.ts";
import { ok } from "./envelope.ts";
import { pageResult, pagingOf } from "../services/paging.ts";
import type { Query } from "./query-values.ts";

async function logPage(filter: LogFilter, query: Query, admin: boolean) {
  const paging = pagingOf(query);
  const { items, total } = await queryLogs(filter, paging);
  return ok(
    pageResult(
      items.map((row) => toLogView(row, admin)),
      total,
      paging,
    ),
  );
}

export const logRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/log" })
    .use(auth)
    .guard({ role: Role.common }, (user) =>
      user
        .get("/self", ({ caller, query }) => logPage({ ...logFilterFromQuery(query, false), userId: caller.user.id }, query, false))
        .get("/self/stat", async ({ caller, query }) => ok(await logStat({ ...logFilterFromQuery(query, false), userId: caller.user.id })))
        // The request inspector's capture of an entry: its user's and the admins' (issue 27).
        .get("/:id/capture", async ({ caller, params }) => ok(await readCapture(caller.user, Number(params.id)))),
    )
    .guard({ role: Role.admin }, (admin) =>
      admin
        .get("/", ({ query }) => logPage(logFilterFromQuery(query, true), query, true))
        .get("/stat", async ({ query }) => ok(await logStat(logFilterFromQuery(query, true))))
        .delete("/", async ({ actor, query, request }) => {
          const count = await deleteLogsBefore(query.target_timestamp, actor);
          return ok(count, requestTranslator(request)("{{count}} 条日志已清理！", { count }));
        }),
    );
