// /api/channel/*: create (batch keys), read without keys, list and search, update, delete,
// copy, tags, abilities kept in step with channels, the spec's form messages, admin only.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

const base = { type: ChannelType.OpenAI, models: "gpt-4o,gpt-4o-mini", group: "default,vip" };
let sequence = 0;
async function create(fields: Record<string, unknown> = {}) {
  const name = `ch-${++sequence}`;
  const result = await root.post("/api/channel/", { ...base, name, key: `sk-secret-${sequence}-canary`, ...fields });
  expect(result.body.success).toBe(true);
  return result.body.data as { id: number; name: string }[];
}
const abilities = (channelId: number) =>
  server.store.query<{ group: string; model: string; enabled: unknown; priority: number; weight: number; tag: string | null }>(
    'select "group", model, enabled, priority, weight, tag from abilities where channel_id = ? order by "group", model',
    channelId,
  );
const keyOf = async (id: number) => (await server.store.query<{ key: string }>("select key from channels where id = ?", id))[0]?.key;

describe("permissions", () => {
  test("visitors get 401, common users are refused, admins are served", async () => {
    const visitor = new ApiSession(server.url);
    expect((await visitor.get("/api/channel/")).status).toBe(401);
    const user = await newUserSession(server.url, "chuser");
    for (const [method, path] of [
      ["GET", "/api/channel/"],
      ["POST", "/api/channel/"],
      ["PUT", "/api/channel/"],
      ["DELETE", "/api/channel/1"],
      ["POST", "/api/channel/fix"],
      ["GET", "/api/channel/models"],
    ] as const) {
      const result = await user.request(method, path, method === "GET" || method === "DELETE" ? undefined : {});
      expect(result.body).toEqual({ success: false, message: "无权进行此操作，权限不足" });
    }
    await server.store.query("update users set role = 10 where username = ?", "chuser");
    expect((await user.get("/api/channel/")).body.success).toBe(true);
  });
});

describe("create", () => {
  test("one channel: stored with its key, answered without it, abilities = models x groups", async () => {
    const [channel] = await create({ priority: 5, weight: 3, tag: "team" });
    expect(channel).not.toHaveProperty("key");
    expect(await keyOf(channel!.id)).toBe(`sk-secret-${sequence}-canary`);
    const rows = await abilities(channel!.id);
    expect(rows.map((row) => `${row.group}/${row.model}`)).toEqual([
      "default/gpt-4o",
      "default/gpt-4o-mini",
      "vip/gpt-4o",
      "vip/gpt-4o-mini",
    ]);
    for (const row of rows) {
      expect(Boolean(row.enabled)).toBe(true);
      expect([Number(row.priority), row.weight, row.tag]).toEqual([5, 3, "team"]);
    }
  });

  test("batch: one channel per key line, blank lines skipped", async () => {
    const result = await root.post("/api/channel/", { ...base, name: "batch", key: "key-a\n\n key-b \nkey-c\n" });
    expect(result.body.success).toBe(true);
    const ids = (result.body.data as { id: number }[]).map((row) => row.id);
    expect(ids).toHaveLength(3);
    expect(await Promise.all(ids.map(keyOf))).toEqual(["key-a", "key-b", "key-c"]);
  });

  test("a Vertex key is one JSON document and is not split by lines", async () => {
    const key = '{\n  "type": "service_account",\n  "project_id": "p"\n}';
    const result = await root.post("/api/channel/", { ...base, type: ChannelType.Vertex, name: "vertex", key, other: "us-central1" });
    expect(result.body.data).toHaveLength(1);
    expect(await keyOf(result.body.data[0].id)).toBe(key);
    expect((await root.post("/api/channel/", { ...base, type: ChannelType.Vertex, name: "v", key })).body.message).toBe("部署地区不能为空");
    expect(
      (await root.post("/api/channel/", { ...base, type: ChannelType.Vertex, name: "v", key, other: '{"eu":"europe-west1"}' })).body
        .message,
    ).toBe("部署地区必须包含default字段");
    expect(
      (await root.post("/api/channel/", { ...base, type: ChannelType.Vertex, name: "v", key: "not json", other: "us-central1" })).body
        .message,
    ).toBe("请输入 JSON 格式的服务账号凭证，或 Vertex AI 快速模式的 API Key");
    // An API key of Vertex AI in express mode is a key too.
    expect(
      (
        await root.post("/api/channel/", {
          ...base,
          type: ChannelType.Vertex,
          name: "v",
          key: "AQ.Ab8RN6-express-key_0123",
          other: "us-central1",
        })
      ).body.success,
    ).toBe(true);
  });

  test("new-api's newer {mode, channel} body is accepted", async () => {
    const result = await root.post("/api/channel/", { mode: "single", channel: { ...base, name: "wrapped", key: "one\ntwo" } });
    expect(result.body.data).toHaveLength(1);
    expect(await keyOf(result.body.data[0].id)).toBe("one\ntwo");
  });

  test("the specification's form messages", async () => {
    const post = (fields: Record<string, unknown>) => root.post("/api/channel/", { ...base, name: "x", key: "k", ...fields });
    // data.field names the input at fault, so the drawer shows the message beside it.
    expect((await post({ name: "" })).body).toEqual({ success: false, message: "请填写渠道名称和渠道密钥！", data: { field: "name" } });
    expect((await post({ key: "  \n " })).body).toEqual({ success: false, message: "请填写渠道名称和渠道密钥！", data: { field: "key" } });
    expect((await post({ models: "" })).body.message).toBe("请至少选择一个模型！");
    expect((await post({ models: " , " })).body.message).toBe("请至少选择一个模型！");
    expect((await post({ model_mapping: "{bad" })).body).toEqual({
      success: false,
      message: "模型映射必须是合法的 JSON 格式！",
      data: { field: "model_mapping" },
    });
    expect((await post({ model_mapping: "[1]" })).body.message).toBe("模型映射必须是合法的 JSON 格式！");
    expect((await post({ status_code_mapping: "x" })).body.message).toBe("状态码复写必须是合法的 JSON 格式！");
    expect((await post({ setting: "x" })).body.message).toBe("渠道额外设置必须是合法的 JSON 格式！");
    expect((await post({ priority: "1.5" })).body).toEqual({ success: false, message: "优先级必须是整数！", data: { field: "priority" } });
    expect((await post({ models: "" })).body.data).toEqual({ field: "models" });
    expect((await post({ type: 9999 })).body.message).toBe("未知的渠道类型");
    expect((await post({ models: "a".repeat(256) })).body.message).toBe(`模型名称过长: ${"a".repeat(256)}`);
    // Over the columns' limits: a clear refusal on every dialect (PostgreSQL would fail with a 500).
    expect((await post({ name: "n".repeat(256) })).body.message).toBe("name 过长，最多 255 个字符");
    expect((await post({ tag: "t".repeat(65) })).body.message).toBe("tag 过长，最多 64 个字符");
    const count = await server.store.query<{ n: number }>("select count(*) as n from channels where name = 'x'");
    expect(Number(count[0]!.n)).toBe(0);
  });

  test("normalises: trailing slash and /v1 stripped, Azure and Spark defaults, weight at least 0, lists trimmed", async () => {
    const [openai] = await create({ base_url: "https://proxy.example.com/v1/", weight: -5, models: " a , b ,a", group: "" });
    const view = (await root.get(`/api/channel/${openai!.id}`)).body.data;
    expect([view.base_url, view.weight, view.models, view.group]).toEqual(["https://proxy.example.com", 0, "a,b", "default"]);
    const [custom] = await create({ type: ChannelType.Custom, base_url: "https://x.example.com/v1/" });
    expect((await root.get(`/api/channel/${custom!.id}`)).body.data.base_url).toBe("https://x.example.com/v1");
    const [azure] = await create({ type: ChannelType.Azure, base_url: "https://a.openai.azure.com" });
    expect((await root.get(`/api/channel/${azure!.id}`)).body.data.other).toBe("2023-06-01-preview");
    const [spark] = await create({ type: ChannelType.Spark });
    expect((await root.get(`/api/channel/${spark!.id}`)).body.data.other).toBe("v2.1");
    const [listed] = await create({ models: ["m1", "m2"], groups: ["vip"] });
    const listedView = (await root.get(`/api/channel/${listed!.id}`)).body.data;
    expect([listedView.models, listedView.group]).toEqual(["m1,m2", "vip"]);
  });
});

describe("read", () => {
  test("get omits the key; an unknown id says the channel does not exist", async () => {
    const [channel] = await create();
    const result = await root.get(`/api/channel/${channel!.id}`);
    expect(result.body.data.id).toBe(channel!.id);
    expect(result.body.data).not.toHaveProperty("key");
    expect(JSON.stringify(result.body)).not.toContain("canary");
    expect((await root.get("/api/channel/999999")).body).toEqual({ success: false, message: "渠道不存在" });
  });

  test("list: plain array, p from 0, page_size, priority order or id order, never keys", async () => {
    const all = (await root.get("/api/channel/?p=0&page_size=100")).body.data as { id: number; priority: number }[];
    expect(Array.isArray(all)).toBe(true);
    expect(JSON.stringify(all)).not.toContain("canary");
    for (let index = 1; index < all.length; index++) {
      const [before, after] = [all[index - 1]!, all[index]!];
      expect(before.priority > after.priority || (before.priority === after.priority && before.id > after.id)).toBe(true);
    }
    const byId = (await root.get("/api/channel/?p=0&page_size=100&id_sort=true")).body.data as { id: number }[];
    expect(byId.map((row) => row.id)).toEqual([...byId.map((row) => row.id)].sort((a, b) => b - a));
    const first = (await root.get("/api/channel/?p=0&page_size=2&id_sort=true")).body.data as { id: number }[];
    const second = (await root.get("/api/channel/?p=1&page_size=2&id_sort=true")).body.data as { id: number }[];
    expect(first.map((row) => row.id)).toEqual(byId.slice(0, 2).map((row) => row.id));
    expect(second.map((row) => row.id)).toEqual(byId.slice(2, 4).map((row) => row.id));
  });

  test("search by id, name or exact key, by whole group name and by model", async () => {
    const [channel] = await create({ name: "searchable-alpha", group: "svip", models: "special-model-x" });
    const search = async (query: string) =>
      ((await root.get(`/api/channel/search?${query}`)).body.data as { id: number }[]).map((row) => row.id);
    expect(await search(`keyword=${channel!.id}`)).toContain(channel!.id);
    expect(await search("keyword=able-alp")).toEqual([channel!.id]);
    expect(await search(`keyword=sk-secret-${sequence}-canary`)).toEqual([channel!.id]);
    expect(await search("keyword=secret")).not.toContain(channel!.id);
    expect(await search("group=svip")).toEqual([channel!.id]);
    expect(await search("group=vip")).not.toContain(channel!.id);
    expect(await search("model=special-model")).toEqual([channel!.id]);
    expect(await search("keyword=%25%25")).toEqual([]);
  });

  test("tag mode pages over tags (all channels of a tag together) and untagged channels", async () => {
    const tagged = [...(await create({ tag: "tm-a", priority: 90 })), ...(await create({ tag: "tm-a", priority: 1 }))];
    const page = (await root.get("/api/channel/?p=0&page_size=1&tag_mode=true")).body.data as { id: number; tag: string }[];
    expect(page.map((row) => row.id).sort()).toEqual(tagged.map((row) => row.id).sort());
    const searched = (await root.get("/api/channel/search?keyword=ch-&tag_mode=true")).body.data as { tag: string | null }[];
    const tags = searched.map((row) => row.tag);
    expect(tags.lastIndexOf("tm-a") - tags.indexOf("tm-a")).toBe(1);
  });

  test("GET /api/channel/models lists built-in and configured model names as model objects", async () => {
    await create({ models: "house-model-1" });
    const ids = ((await root.get("/api/channel/models")).body.data as { id: string }[]).map((model) => model.id);
    expect(ids).toContain("gpt-4o-mini");
    expect(ids).toContain("house-model-1");
  });
});

describe("update", () => {
  test("partial: status only, abilities follow; answers the channel without its key", async () => {
    const [channel] = await create();
    const result = await root.put("/api/channel/", { id: channel!.id, status: 2 });
    expect(result.body.data.status).toBe(2);
    expect(result.body.data).not.toHaveProperty("key");
    expect((await abilities(channel!.id)).every((row) => !row.enabled)).toBe(true);
    await root.put("/api/channel/", { id: channel!.id, status: 1 });
    expect((await abilities(channel!.id)).every((row) => Boolean(row.enabled))).toBe(true);
  });

  test("an empty key keeps the old one; a new key replaces it", async () => {
    const [channel] = await create();
    const old = await keyOf(channel!.id);
    await root.put("/api/channel/", { id: channel!.id, key: "", name: "renamed" });
    expect(await keyOf(channel!.id)).toBe(old);
    await root.put("/api/channel/", { id: channel!.id, key: "brand-new-key" });
    expect(await keyOf(channel!.id)).toBe("brand-new-key");
  });

  test("models, groups, priority and weight rebuild the abilities", async () => {
    const [channel] = await create();
    await root.put("/api/channel/", { id: channel!.id, models: "m-x", group: "svip", priority: 7, weight: 4 });
    expect((await abilities(channel!.id)).map((row) => [row.group, row.model, Number(row.priority), row.weight])).toEqual([
      ["svip", "m-x", 7, 4],
    ]);
  });

  test("messages and refusals", async () => {
    const [channel] = await create();
    const put = (fields: Record<string, unknown>) => root.put("/api/channel/", { id: channel!.id, ...fields });
    expect((await put({ models: "" })).body.message).toBe("请至少选择一个模型！");
    expect((await put({ model_mapping: "nope" })).body.message).toBe("模型映射必须是合法的 JSON 格式！");
    expect((await put({ name: " " })).body.message).toBe("请填写渠道名称和渠道密钥！");
    expect((await put({ status: 9 })).body.message).toBe("无效的渠道状态");
    expect((await root.put("/api/channel/", { id: 999999, status: 1 })).body.message).toBe("渠道不存在");
    expect((await root.put("/api/channel/", { status: 1 })).body.message).toBe("无效的参数");
    expect((await put({ model_mapping: '{"gpt-3.5-turbo":"gpt-4o-mini"}' })).body.data.model_mapping).toBe(
      '{"gpt-3.5-turbo":"gpt-4o-mini"}',
    );
  });
});

describe("delete, copy, fix", () => {
  test("delete with new-api's trailing slash removes the channel and its abilities", async () => {
    const [channel] = await create();
    expect((await root.delete(`/api/channel/${channel!.id}/`)).body.success).toBe(true);
    expect(await abilities(channel!.id)).toEqual([]);
    expect((await root.delete(`/api/channel/${channel!.id}`)).body.message).toBe("渠道不存在");
  });

  test("batch delete needs a selection and gives the count", async () => {
    expect((await root.post("/api/channel/batch", { ids: [] })).body).toEqual({ success: false, message: "请先选择要删除的通道！" });
    const ids = [...(await create()), ...(await create())].map((row) => row.id);
    expect((await root.post("/api/channel/batch", { ids: [...ids, 999999] })).body.data).toBe(2);
    expect(await server.store.query("select id from channels where id in (?, ?)", ids[0], ids[1])).toEqual([]);
  });

  test("delete disabled removes hand- and auto-disabled channels only", async () => {
    const [manual] = await create();
    const [auto] = await create();
    const [enabled] = await create();
    await root.put("/api/channel/", { id: manual!.id, status: 2 });
    await server.store.query("update channels set status = 3 where id = ?", auto!.id);
    const result = await root.delete("/api/channel/disabled");
    expect(result.body.data).toBeGreaterThanOrEqual(2);
    expect((await root.get(`/api/channel/${manual!.id}`)).body.message).toBe("渠道不存在");
    expect((await root.get(`/api/channel/${auto!.id}`)).body.message).toBe("渠道不存在");
    expect((await root.get(`/api/channel/${enabled!.id}`)).body.success).toBe(true);
  });

  test("copy keeps key and settings, adds the suffix, resets tests and balance", async () => {
    const [channel] = await create({ model_mapping: '{"a":"b"}' });
    await server.store.query(
      "update channels set balance = 12.5, used_quota = 999, response_time = 800, test_time = 5 where id = ?",
      channel!.id,
    );
    const result = await root.post(`/api/channel/copy/${channel!.id}`);
    const copy = (await root.get(`/api/channel/${result.body.data.id}`)).body.data;
    expect(copy.name).toBe(`${channel!.name}_复制`);
    expect([copy.balance, copy.used_quota, copy.response_time, copy.test_time, copy.model_mapping]).toEqual([0, 0, 0, 0, '{"a":"b"}']);
    expect(await keyOf(copy.id)).toBe(await keyOf(channel!.id));
    expect((await abilities(copy.id)).length).toBe(4);
    expect((await root.post("/api/channel/copy/999999")).body.message).toBe("渠道未找到，请刷新页面后重试。");
  });

  test("fix rebuilds abilities from the channels", async () => {
    const [channel] = await create();
    await server.store.query("delete from abilities where channel_id = ?", channel!.id);
    await server.store.query(
      "insert into abilities (\"group\", model, channel_id, enabled, priority, weight) values ('ghost', 'ghost', ?, ?, 0, 0)",
      channel!.id,
      server.store.dialect === "pg" ? true : 1,
    );
    const result = await root.post("/api/channel/fix");
    const channels = await server.store.query<{ n: number }>("select count(*) as n from channels");
    expect(result.body.data).toBe(Number(channels[0]!.n));
    expect((await abilities(channel!.id)).map((row) => `${row.group}/${row.model}`)).toEqual([
      "default/gpt-4o",
      "default/gpt-4o-mini",
      "vip/gpt-4o",
      "vip/gpt-4o-mini",
    ]);
  });
});

describe("tags", () => {
  test("batch set tag needs a selection and a tag", async () => {
    const ids = [...(await create()), ...(await create())].map((row) => row.id);
    expect((await root.post("/api/channel/batch/tag", { ids: [], tag: "x" })).body.message).toBe("请先选择要设置标签的渠道！");
    expect((await root.post("/api/channel/batch/tag", { ids, tag: " " })).body.message).toBe("标签不能为空！");
    expect((await root.post("/api/channel/batch/tag", { ids, tag: "group-t" })).body.data).toBe(2);
    expect((await abilities(ids[0]!)).every((row) => row.tag === "group-t")).toBe(true);
  });

  test("disable and enable every channel of a tag", async () => {
    const ids = [...(await create({ tag: "toggle-t" })), ...(await create({ tag: "toggle-t" }))].map((row) => row.id);
    expect((await root.post("/api/channel/tag/disabled", { tag: "toggle-t" })).body.data).toBe(2);
    for (const id of ids) {
      expect((await root.get(`/api/channel/${id}`)).body.data.status).toBe(2);
      expect((await abilities(id)).some((row) => Boolean(row.enabled))).toBe(false);
    }
    await root.post("/api/channel/tag/enabled", { tag: "toggle-t" });
    expect((await root.get(`/api/channel/${ids[0]}`)).body.data.status).toBe(1);
    expect((await root.post("/api/channel/tag/enabled", { tag: "" })).body.message).toBe("标签不能为空！");
  });

  test("tag edit: the spec's messages, blank means unchanged, rename and dissolve", async () => {
    const ids = [...(await create({ tag: "edit-t", priority: 3 })), ...(await create({ tag: "edit-t", priority: 3 }))].map((row) => row.id);
    const edit = (fields: Record<string, unknown>) => root.put("/api/channel/tag", { tag: "edit-t", ...fields });
    expect((await edit({ priority: "high" })).body.message).toBe("优先级必须是整数！");
    expect((await edit({ weight: -1 })).body.message).toBe("权重必须是非负整数！");
    expect((await edit({ weight: "2.5" })).body.message).toBe("权重必须是非负整数！");
    expect((await edit({ model_mapping: "{" })).body.message).toBe("模型映射必须是合法的 JSON 格式！");
    expect((await edit({ models: "", groups: "", priority: "", new_tag: "edit-t" })).body.message).toBe("没有任何修改！");
    expect((await edit({ weight: 6, models: "tm-1,tm-2", groups: "vip" })).body.data).toBe(2);
    const view = (await root.get(`/api/channel/${ids[0]}`)).body.data;
    expect([view.priority, view.weight, view.models, view.group]).toEqual([3, 6, "tm-1,tm-2", "vip"]);
    expect((await abilities(ids[0]!)).map((row) => `${row.group}/${row.model}/${row.weight}`)).toEqual(["vip/tm-1/6", "vip/tm-2/6"]);
    await edit({ new_tag: "edit-t2" });
    expect((await root.get(`/api/channel/${ids[1]}`)).body.data.tag).toBe("edit-t2");
    await root.put("/api/channel/tag", { tag: "edit-t2", new_tag: "" });
    expect((await root.get(`/api/channel/${ids[1]}`)).body.data.tag).toBeNull();
  });
});

describe("secrets", () => {
  test("keys never reach the process log", () => {
    expect(server.output()).not.toContain("canary");
    expect(server.output()).not.toContain("brand-new-key");
  });
});
