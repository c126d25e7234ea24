// User management for admins: list, search, one user, create, edit, row actions
// and delete. Every permission rule lives in the services (users/user-admin.ts and friends).
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { createUserByAdmin, getUserForAdmin, listUsers } from "../services/users/user-admin.ts";
import { deleteUserByAdmin, manageUser } from "../services/users/user-manage.ts";
import { updateUserByAdmin } from "../services/users/user-update.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";

export const userAdminRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/user" })
    .use(auth)
    .get("/", async ({ query }) => ok(await listUsers(query)), { role: Role.admin })
    .get("/search", async ({ query }) => ok(await listUsers(query)), { role: Role.admin })
    .get("/:id", async ({ caller, params }) => ok(await getUserForAdmin(caller.user, Number(params.id))), { role: Role.admin })
    .post("/", async ({ caller, actor, body }) => ok(await createUserByAdmin(caller.user, body, actor), "用户账户创建成功！"), {
      role: Role.admin,
    })
    .put("/", async ({ caller, actor, body }) => ok(await updateUserByAdmin(caller.user, body, actor), "用户信息更新成功！"), {
      role: Role.admin,
    })
    .post("/manage", async ({ caller, actor, body }) => ok(await manageUser(caller.user, body, actor), "操作成功完成！"), {
      role: Role.admin,
    })
    .delete(
      "/:id",
      async ({ caller, actor, params }) => {
        await deleteUserByAdmin(caller.user, Number(params.id), actor);
        return ok(undefined, "操作成功完成！");
      },
      { role: Role.admin },
    );
