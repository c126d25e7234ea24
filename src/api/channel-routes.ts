// /api/channel/*: channel management for admins. Lists are plain arrays
// paged by a 0-based `p` and `page_size`, like new-api; keys never appear in any answer.
import { Elysia } from "elysia";
import { requestTranslator } from "../http/request-language.ts";
import type { WebDeps } from "../http/web-deps.ts";
import { testAllChannels, testChannel } from "../relay/channels/channel-test.ts";
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
import { fetchModelsForForm, fetchModelsOfChannel, updateAllBalances, updateChannelBalance } from "../relay/channels/channel-upstream.ts";
import { knownModelNames, toModelObject } from "../services/channels/model-names.ts";
import { manageChannelKeys } from "../services/channels/channel-key-actions.ts";
import { Role } from "../services/users/roles.ts";
import { ok } from "./envelope.ts";
import { queryBool, zeroBasedPaging, type Query } from "./query-values.ts";

type Body = Record<string, unknown>;

const orderOf = (query: Query) => ({ idSort: queryBool(query.id_sort), tagMode: queryBool(query.tag_mode) });

export const channelRoutes = ({ auth }: WebDeps) =>
  new Elysia({ prefix: "/api/channel" }).use(auth).guard({ role: Role.admin }, (admin) =>
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
      // Tests answer new-api's shape: {success, message, time} with the time in seconds.
      .get("/test", async ({ request }) => {
        await testAllChannels();
        return ok(undefined, requestTranslator(request)("已成功开始测试所有渠道，请刷新页面查看结果。"));
      })
      .get("/test/:id", async ({ params, query, request }) => {
        const channel = await findChannel(Number(params.id));
        const keyIndex = query.key_index === undefined || query.key_index === "" ? undefined : Number(query.key_index);
        const result = await testChannel(channel.id, query.model, keyIndex);
        const time = Number(result.timeSeconds.toFixed(3));
        const message = result.success
          ? requestTranslator(request)("通道 {{name}} 测试成功，耗时 {{time}} 秒。", { name: channel.name, time: time.toFixed(2) })
          : result.message;
        return { success: result.success, message, time };
      })
      .get("/update_balance", async ({ request }) => {
        const { updated, failed } = await updateAllBalances();
        return ok(undefined, requestTranslator(request)("已更新 {{updated}} 个渠道的余额，{{failed}} 个失败", { updated, failed }));
      })
      .get("/update_balance/:id", async ({ params }) => {
        const balance = await updateChannelBalance(Number(params.id));
        return { success: true, message: "", balance };
      })
      .get("/fetch_models/:id", async ({ params }) => ok(await fetchModelsOfChannel(Number(params.id))))
      .post("/fetch_models", async ({ body }) => ok(await fetchModelsForForm((body as Body) ?? {})))
      .post("/multi_key/manage", async ({ actor, body }) => ok(await manageChannelKeys(actor, body)))
      .get("/:id", async ({ params }) => ok(toChannelView(await findChannel(Number(params.id)))))
      .post("/", async ({ actor, body }) => ok(await createChannels(actor, body)))
      .put("/", async ({ actor, body }) => ok(await updateChannel(actor, body)))
      .delete("/disabled", async ({ actor }) => ok(await deleteDisabledChannels(actor)))
      .delete("/:id", async ({ actor, params }) => {
        await deleteChannel(actor, Number(params.id));
        return ok();
      })
      .post("/batch", async ({ actor, body }) => ok(await deleteChannels(actor, (body as Body | undefined)?.ids)))
      .post("/batch/tag", async ({ actor, body }) => ok(await setTagOfChannels(actor, (body as Body) ?? {})))
      .post("/fix", async ({ actor }) => ok(await fixAbilities(actor)))
      .post("/copy/:id", async ({ actor, params, query }) =>
        ok(
          await copyChannel(actor, Number(params.id), {
            suffix: query.suffix,
            resetBalance: query.reset_balance === undefined ? true : queryBool(query.reset_balance),
          }),
        ),
      )
      .put("/tag", async ({ actor, body }) => ok(await editTag(actor, (body as Body) ?? {})))
      .post("/tag/enabled", async ({ actor, body }) => ok(await setTagStatus(actor, (body as Body) ?? {}, true)))
      .post("/tag/disabled", async ({ actor, body }) => ok(await setTagStatus(actor, (body as Body) ?? {}, false))),
  );
