// /api/channel/*: channel management for admins (spec §7 Channels). Lists are plain arrays
// paged by a 0-based `p` and `page_size`, like new-api; keys never appear in any answer.
import { Elysia } from "elysia";
import type { WebDeps } from "../http/web-deps.ts";
import { findChannel, queryChannels, toChannelView } from "../services/channels/channel-queries.ts";
import { editTag, setTagOfChannels, setTagStatus } from "../services/channels/channel-tags.ts";
import {
  copyChannel,
  createChannels,
  deleteChannel,
  deleteChannels,
  deleteDisabledChannels,
  fixAbilities,
  updateChannel,
} from "../services/channels/channel-writes.ts";
import { knownModelNames, toModelObject } from "../services/channels/model-names.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";
import { queryBool, zeroBasedPaging, type Query } from "./query-values.ts";

type Body = Record<string, unknown>;

const orderOf = (query: Query) => ({ idSort: queryBool(query.id_sort), tagMode: queryBool(query.tag_mode) });

export const channelRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/channel" })
    .use(auth)
    .guard({ role: Role.admin }, (admin) =>
      admin
        .get("/", async ({ query }) => {
          const { items } = await queryChannels({}, orderOf(query), zeroBasedPaging(query, "page_size"));
          return ok(items.map(toChannelView));
        })
        .get("/search", async ({ query }) => {
          const { items } = await queryChannels({ keyword: query.keyword, group: query.group, model: query.model }, orderOf(query));
          return ok(items.map(toChannelView));
        })
        .get("/models", async () => ok((await knownModelNames()).map(toModelObject)))
        .get("/:id", async ({ params }) => ok(toChannelView(await findChannel(Number(params.id)))))
        .post("/", async ({ body }) => ok(await createChannels(body)))
        .put("/", async ({ body }) => ok(await updateChannel(body)))
        .delete("/disabled", async () => ok(await deleteDisabledChannels()))
        .delete("/:id", async ({ params }) => {
          await deleteChannel(Number(params.id));
          return ok();
        })
        .post("/batch", async ({ body }) => ok(await deleteChannels((body as Body | undefined)?.ids)))
        .post("/batch/tag", async ({ body }) => ok(await setTagOfChannels((body as Body) ?? {})))
        .post("/fix", async () => ok(await fixAbilities()))
        .post("/copy/:id", async ({ params, query }) =>
          ok(await copyChannel(Number(params.id), { suffix: query.suffix, resetBalance: query.reset_balance === undefined ? true : queryBool(query.reset_balance) })),
        )
        .put("/tag", async ({ body }) => ok(await editTag((body as Body) ?? {})))
        .post("/tag/enabled", async ({ body }) => ok(await setTagStatus((body as Body) ?? {}, true)))
        .post("/tag/disabled", async ({ body }) => ok(await setTagStatus((body as Body) ?? {}, false))),
    );
