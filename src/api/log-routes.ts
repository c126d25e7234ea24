// /api/log/*: usage logs (spec §7 Options and logs). Pages count from 1 and answer
// {items, page, page_size, total}; admins read the whole site, users their own entries.
import { Elysia } from "elysia";
import { requestTranslator } from "../http/request-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { deleteLogsBefore } from "../services/logs/log-cleanup.ts";
import { logStat, queryLogs, toLogView, type LogFilter } from "../services/logs/log-queries.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";
import { oneBasedPaging, queryInt, type Query } from "./query-values.ts";

/** The filters every caller may use; username and channel only count for admins. */
export function logFilterOf(query: Query, admin: boolean): LogFilter {
  return {
    type: queryInt(query.type, 0),
    startTimestamp: queryInt(query.start_timestamp, 0),
    endTimestamp: queryInt(query.end_timestamp, 0),
    tokenName: query.token_name?.trim() || undefined,
    modelName: query.model_name?.trim() || undefined,
    group: query.group?.trim() || undefined,
    ...(admin ? { username: query.username?.trim() || undefined, channel: queryInt(query.channel, 0) } : {}),
  };
}

async function logPage(filter: LogFilter, query: Query, admin: boolean) {
  const paging = oneBasedPaging(query);
  const { items, total } = await queryLogs(filter, paging);
  return ok({ items: items.map((row) => toLogView(row, admin)), page: paging.page, page_size: paging.pageSize, total });
}

export const logRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/log" })
    .use(auth)
    .guard({ role: Role.common }, (user) =>
      user
        .get("/self", ({ caller, query }) => logPage({ ...logFilterOf(query, false), userId: caller.user.id }, query, false))
        .get("/self/stat", async ({ caller, query }) => ok(await logStat({ ...logFilterOf(query, false), userId: caller.user.id }))),
    )
    .guard({ role: Role.admin }, (admin) =>
      admin
        .get("/", ({ query }) => logPage(logFilterOf(query, true), query, true))
        .get("/stat", async ({ query }) => ok(await logStat(logFilterOf(query, true))))
        .delete("/", async ({ query, request }) => {
          const count = await deleteLogsBefore(query.target_timestamp);
          return ok(count, requestTranslator(request)("{{count}} 条日志已清理！", { count }));
        }),
    );
