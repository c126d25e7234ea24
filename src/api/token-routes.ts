// /api/token/*: the signed-in user's own tokens. The list is a plain array
// paged by a 0-based `p` and `size` (new-api's convention); keys are shown to their owner.
// Any non-empty status_only (new-api's test) makes PUT change the status alone.
import { Elysia } from "elysia";
import { requestTranslator } from "../http/request-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { findToken, queryTokens, toTokenView } from "../services/tokens/token-queries.ts";
import { createTokens, deleteToken, deleteTokens, updateToken } from "../services/tokens/token-writes.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";
import { zeroBasedPaging } from "./query-values.ts";

const searchLimit = { page: 1, pageSize: 100 };

export const tokenRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/token" }).use(auth).guard({ role: Role.common }, (user) =>
    user
      .get("/", async ({ caller, query }) => {
        const { items } = await queryTokens(caller.user.id, {}, zeroBasedPaging(query, "size"));
        return ok(items.map(toTokenView));
      })
      .get("/search", async ({ caller, query }) => {
        const { items } = await queryTokens(caller.user.id, { keyword: query.keyword, token: query.token }, searchLimit);
        return ok(items.map(toTokenView));
      })
      .get("/:id", async ({ caller, params }) => ok(toTokenView(await findToken(caller.user.id, Number(params.id)))))
      .post("/", async ({ caller, actor, body, request }) =>
        ok(await createTokens(caller.user, body, actor), requestTranslator(request)("令牌创建成功，请在列表页面点击复制获取令牌！")),
      )
      .put("/", async ({ caller, actor, body, query, request }) =>
        ok(await updateToken(caller.user, body, Boolean(query.status_only), actor), requestTranslator(request)("令牌更新成功！")),
      )
      .post("/batch", async ({ caller, actor, body }) =>
        ok(await deleteTokens(caller.user, (body as { ids?: unknown } | undefined)?.ids, actor)),
      )
      .delete("/:id", async ({ caller, actor, params }) => {
        await deleteToken(caller.user, Number(params.id), actor);
        return ok();
      }),
  );
