// /api/mj and /api/task: drawing and music (asynchronous) task lists. Admins read the
// whole site and may filter by channel; users read their own. Pages count from 0 and `data` is
// the plain array of the page (new-api's convention for these two lists), 10 rows unless
// page_size says otherwise.
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { drawings } from "../services/tasks/drawing-tasks.ts";
import { music } from "../services/tasks/music-tasks.ts";
import { taskFilterFromQuery } from "../services/tasks/task-filters.ts";
import { drawingView, musicView } from "../services/tasks/task-views.ts";
import type { UserRow } from "../services/users/user-view.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";
import { zeroBasedPaging, type Query } from "./query-values.ts";

const pageOf = (query: Query) => {
  const { page, pageSize } = zeroBasedPaging(query, "page_size");
  return { offset: (page - 1) * pageSize, limit: pageSize };
};

async function drawingList(user: UserRow, query: Query, admin: boolean) {
  const { items } = await drawings.list(taskFilterFromQuery("drawing", query, { userId: user.id, admin }), pageOf(query));
  return ok(items.map((row) => drawingView(row, admin)));
}

async function musicList(user: UserRow, query: Query, admin: boolean) {
  const { items } = await music.list(taskFilterFromQuery("music", query, { userId: user.id, admin }), pageOf(query));
  return ok(items.map((row) => musicView(row, admin)));
}

export const taskRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api" })
    .use(auth)
    .guard({ role: Role.common }, (user) =>
      user
        .get("/mj/self", ({ caller, query }) => drawingList(caller.user, query, false))
        .get("/task/self", ({ caller, query }) => musicList(caller.user, query, false)),
    )
    .guard({ role: Role.admin }, (admin) =>
      admin
        .get("/mj", ({ caller, query }) => drawingList(caller.user, query, true))
        .get("/task", ({ caller, query }) => musicList(caller.user, query, true)),
    );
