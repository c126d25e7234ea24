// /api/mj and /api/task (spec §7 Tasks): drawing and asynchronous task lists. Admins read the
// whole site and may filter by channel; users read their own. Pages count from 0 and `data` is
// the plain array of the page (new-api's convention for these two lists), 10 rows unless
// page_size says otherwise.
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { listAsyncTasks } from "../services/tasks/async-task-store.ts";
import { listDrawings } from "../services/tasks/drawing-store.ts";
import { asyncTaskFilterFromQuery, drawingFilterFromQuery } from "../services/tasks/task-filters.ts";
import { asyncTaskView, drawingView } from "../services/tasks/task-views.ts";
import type { UserRow } from "../services/users/user-view.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";
import { zeroBasedPaging, type Query } from "./query-values.ts";

const pageOf = (query: Query) => {
  const { page, pageSize } = zeroBasedPaging(query, "page_size");
  return { offset: (page - 1) * pageSize, limit: pageSize };
};

async function drawings(user: UserRow, query: Query, admin: boolean) {
  const { items } = await listDrawings(drawingFilterFromQuery(query, { userId: user.id, admin }), pageOf(query));
  return ok(items.map((row) => drawingView(row, admin)));
}

async function tasks(user: UserRow, query: Query, admin: boolean) {
  const { items } = await listAsyncTasks(asyncTaskFilterFromQuery(query, { userId: user.id, admin }), pageOf(query));
  return ok(items.map((row) => asyncTaskView(row, admin)));
}

export const taskRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api" })
    .use(auth)
    .guard({ role: Role.common }, (user) =>
      user
        .get("/mj/self", ({ caller, query }) => drawings(caller.user, query, false))
        .get("/task/self", ({ caller, query }) => tasks(caller.user, query, false)),
    )
    .guard({ role: Role.admin }, (admin) =>
      admin
        .get("/mj", ({ caller, query }) => drawings(caller.user, query, true))
        .get("/task", ({ caller, query }) => tasks(caller.user, query, true)),
    );
