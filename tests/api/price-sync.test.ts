// Price sync (issue 24 §4): an operator refreshes prices from a URL serving Switchyard's price
// list or new-api's ratio-sync formats (its /api/ratio_config and /api/pricing answers), sees
// what would change, then applies it; from the API (the settings page calls the same) and from
// `switchyard prices sync`. The URL goes through the outbound-address guard; bad documents are
// refused with the reason and change nothing. Also the unpriced-models view's API: the models
// channels serve without a price, priced in one call.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { storeRows } from "../helpers/store-rows.ts";
import { createTestStore } from "../helpers/test-store.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

const switchyardList = {
  source: "https://vendor.example/pricing",
  as_of: "2026-11-20",
  models: {
    "sync-model-a": { input: 3, output: 15, cache_read: 0.3, tiers: [{ above: 200000, input: 6, output: 22.5 }] },
    "sync-model-b": { per_call: 0.05 },
    "gpt-4o-mini": { input: 0.15, output: 0.6, cache_read: 0.075 },
  },
};

const ratioConfig = {
  success: true,
  message: "",
  data: {
    model_ratio: { "newapi-model": 1.5, "gpt-4o-mini": 0.075 },
    completion_ratio: { "newapi-model": 4 },
    cache_ratio: { "newapi-model": 0.25 },
    model_price: { "newapi-fixed": 0.02 },
    image_ratio: { "newapi-model": 2 },
  },
};

const pricingList = {
  success: true,
  data: [
    { model_name: "listed-ratio", quota_type: 0, model_ratio: 2, completion_ratio: 3, enable_groups: ["default"] },
    { model_name: "listed-fixed", quota_type: 1, model_price: 0.1, model_ratio: 0 },
  ],
};

const documents: Record<string, () => Response> = {
  "/switchyard.json": () => Response.json(switchyardList),
  "/api/ratio_config": () => Response.json(ratioConfig),
  "/api/pricing": () => Response.json(pricingList),
  "/bad-value.json": () => Response.json({ success: true, data: { model_ratio: { good: 1, bad: "cheap", worse: -2 } } }),
  "/bad-list.json": () => Response.json({ models: { nothing: { output: 4 } } }),
  "/not-json": () => new Response("<html>pricing</html>", { headers: { "content-type": "text/html" } }),
  "/unknown.json": () => Response.json({ prices: [] }),
  "/failed.json": () => Response.json({ success: false, message: "倍率未公开" }),
  "/redirect": () => new Response(null, { status: 302, headers: { location: "/switchyard.json" } }),
  "/missing": () => new Response("no", { status: 404 }),
  "/huge.json": () => new Response(`{"models":{"x":{"input":1}},"pad":"${"x".repeat(11 * 1024 * 1024)}"}`),
};

let source: Server<unknown>;
let base: string;
let server: TestServer;
let root: ApiSession;

beforeAll(async () => {
  source = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (request) => (documents[new URL(request.url).pathname] ?? documents["/missing"]!)(),
  });
  base = `http://127.0.0.1:${source.port}`;
  server = await startTestServer({ env: { OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" } });
  root = await rootSession(server.url);
});
afterAll(async () => {
  await server.stop();
  source.stop(true);
});

const sync = (url: string, apply = false) => root.post("/api/pricing/sync", { url, apply });
const option = async (key: string) =>
  JSON.parse(String((await storeRows(server.store, "select value from options where key = ?", key))[0]!.value));

describe("preview, then apply", () => {
  test("Switchyard's price list: every change shown before and after (dollars become ratios), nothing written", async () => {
    const before = await option("ModelRatio");
    const { body } = await sync(`${base}/switchyard.json`);
    expect(body.success).toBe(true);
    expect(body.data).toMatchObject({ format: "switchyard", models: 3, applied: false, unchanged: 1 });
    expect(body.data.sources).toEqual([{ source: "https://vendor.example/pricing", as_of: "2026-11-20" }]);
    expect(body.data.changes).toEqual([
      {
        model: "sync-model-a",
        before: null,
        after: {
          kind: "ratio",
          modelRatio: 1.5,
          completionRatio: 5,
          cacheRatio: 0.1,
          tiers: [{ above: 200000, modelRatio: 3, completionRatio: 3.75 }],
        },
      },
      { model: "sync-model-b", before: null, after: { kind: "fixed", price: 0.05 } },
    ]);
    expect(await option("ModelRatio")).toEqual(before);
    expect(await option("ModelPriceTiers")).toEqual({});
  });

  test("applying writes the changed options at once; the same document then changes nothing", async () => {
    const { body } = await sync(`${base}/switchyard.json`, true);
    expect(body).toMatchObject({ success: true, message: "价格已更新", data: { applied: true } });
    expect((await option("ModelRatio"))["sync-model-a"]).toBe(1.5);
    expect((await option("CompletionRatio"))["sync-model-a"]).toBe(5);
    expect((await option("CacheRatio"))["sync-model-a"]).toBe(0.1);
    expect((await option("ModelPriceTiers"))["sync-model-a"]).toEqual([{ above: 200000, model_ratio: 3, completion_ratio: 3.75 }]);
    expect((await option("ModelPrice"))["sync-model-b"]).toBe(0.05);
    const [saved] = await storeRows(server.store, "select value from options where key = 'PriceSyncUrl'");
    expect(String(saved!.value)).toBe(`${base}/switchyard.json`);
    const again = await sync(`${base}/switchyard.json`);
    expect(again.body.data).toMatchObject({ changes: [], unchanged: 3 });
  });

  test("new-api's ratio_config: its ratios are ours as they are; fields Switchyard does not price are named", async () => {
    const preview = await sync(`${base}/api/ratio_config`);
    expect(preview.body.data).toMatchObject({ format: "new-api-ratio-config", models: 3, unchanged: 1, ignored: ["image_ratio"] });
    expect(preview.body.data.changes).toEqual([
      { model: "newapi-fixed", before: null, after: { kind: "fixed", price: 0.02 } },
      { model: "newapi-model", before: null, after: { kind: "ratio", modelRatio: 1.5, completionRatio: 4, cacheRatio: 0.25 } },
    ]);
    expect((await sync(`${base}/api/ratio_config`, true)).body.success).toBe(true);
    expect((await option("ModelRatio"))["newapi-model"]).toBe(1.5);
    expect((await option("ModelPrice"))["newapi-fixed"]).toBe(0.02);
  });

  test("new-api's /api/pricing list: quota_type 1 is a price per call, 0 the ratios", async () => {
    const { body } = await sync(`${base}/api/pricing`, true);
    expect(body.data).toMatchObject({ format: "new-api-pricing", models: 2, applied: true });
    expect((await option("ModelPrice"))["listed-fixed"]).toBe(0.1);
    expect((await option("ModelRatio"))["listed-ratio"]).toBe(2);
    expect((await option("CompletionRatio"))["listed-ratio"]).toBe(3);
    expect((await option("ModelRatio"))["listed-fixed"]).toBeUndefined();
  });
});

describe("refusals: clear words, nothing written", () => {
  test("bad documents, failed or odd answers", async () => {
    const before = await option("ModelRatio");
    const refusals: [string, string][] = [
      ["/bad-value.json", 'model_ratio.bad = "cheap" (not a number ≥ 0)'],
      ["/bad-value.json", "价格文件有 2 处错误，未做任何更改"],
      ["/bad-list.json", "models.nothing"],
      ["/not-json", "价格文件不是合法的 JSON"],
      ["/unknown.json", "无法识别的价格文件"],
      ["/failed.json", "价格来源返回失败：倍率未公开"],
      ["/redirect", "价格文件的地址返回了重定向，请填写最终地址"],
      ["/missing", "价格文件的地址返回 HTTP 404"],
      ["/huge.json", "价格文件超过 10 MB，未读取"],
    ];
    for (const [path, words] of refusals) {
      const { body } = await sync(`${base}${path}`, true);
      expect({ path, success: body.success }).toEqual({ path, success: false });
      expect(body.message).toContain(words);
    }
    expect(await option("ModelRatio")).toEqual(before);
  });

  test("private addresses and plain http to hosts the operator has not listed are refused before any connection", async () => {
    for (const url of [
      `http://localhost:${source.port}/switchyard.json`,
      "https://10.1.2.3/prices.json",
      "https://169.254.169.254/latest",
    ]) {
      const { body } = await sync(url);
      expect(body.success).toBe(false);
      expect(body.message).toContain("不允许访问该地址");
      expect(body.message).toContain("OUTBOUND_ALLOWED_HOSTS");
    }
    expect((await sync("ftp://example.com/prices.json")).body.message).toContain("不允许访问该地址");
    // An https name resolving to a private address is refused for that address.
    const resolved = await sync("https://localhost/switchyard.json");
    expect(resolved.body.message).toMatch(/localhost resolves to (127\.0\.0\.1|::1)/);
  });

  test("only the super admin may sync; an English caller reads English", async () => {
    const user = await newUserSession(server.url, "pricewatcher");
    expect((await user.post("/api/pricing/sync", { url: `${base}/switchyard.json` })).body.success).toBe(false);
    const english = await root.request("POST", "/api/pricing/sync", { url: `${base}/missing` }, { cookie: `${root.cookie}; lang=en` });
    expect(english.body.message).toBe("The price document's address answered HTTP 404");
  });
});

describe("the unpriced-models view's API", () => {
  test("lists what channels serve without a price, with the channels; pricing them in one call takes them off", async () => {
    const channel = await root.post("/api/channel/", {
      name: "house",
      type: ChannelType.OpenAI,
      key: "k-house",
      models: "house-model-1,house-model-2,gpt-4o-mini,house-image",
      group: "default",
    });
    expect(channel.body.success).toBe(true);
    const listed = (await root.get("/api/pricing/unpriced")).body.data as {
      model: string;
      channels: { id: number; name: string; enabled: boolean }[];
    }[];
    expect(listed.map((row) => row.model)).toEqual(["house-image", "house-model-1", "house-model-2"]);
    expect(listed[0]!.channels).toEqual([{ id: channel.body.data[0].id, name: "house", enabled: true }]);
    const priced = await root.put("/api/pricing/models", {
      source: "console",
      models: { "house-model-1": { input: 1, output: 4 }, "house-image": { per_call: 0.02 } },
    });
    expect(priced.body).toMatchObject({ success: true, data: { applied: true } });
    expect((await option("ModelRatio"))["house-model-1"]).toBe(0.5);
    expect((await option("CompletionRatio"))["house-model-1"]).toBe(4);
    expect((await option("ModelPrice"))["house-image"]).toBe(0.02);
    expect(((await root.get("/api/pricing/unpriced")).body.data as { model: string }[]).map((row) => row.model)).toEqual(["house-model-2"]);
    const half = await root.put("/api/pricing/models", { models: { "house-model-2": { output: 4 } } });
    expect(half.body.success).toBe(false);
  });
});

describe("switchyard prices sync", () => {
  test("prints the preview and writes nothing; --apply writes; a refused URL is exit 1 with the reason", async () => {
    const store = await createTestStore();
    try {
      const env = { ...store.env, OUTBOUND_ALLOWED_HOSTS: "127.0.0.1" };
      const preview = await runSwitchyard(["prices", "sync", `${base}/switchyard.json`], env);
      expect(preview.stderr).toBe("");
      expect(preview.exitCode).toBe(0);
      expect(preview.stdout).toContain(`Switchyard price list from ${base}/switchyard.json: 3 models`);
      expect(preview.stdout).toContain("+ sync-model-a");
      expect(preview.stdout).toContain("after:  in $3, out $15, cache read $0.3 per 1M; above 200000 prompt tokens in $6, out $22.5");
      expect(preview.stdout).toContain("nothing written: run again with --apply");
      expect(await storeRows(store, "select value from options where key = 'ModelPriceTiers' and value like '%sync-model-a%'")).toEqual([]);
      const applied = await runSwitchyard(["prices", "sync", `${base}/switchyard.json`, "--apply"], env);
      expect(applied.exitCode).toBe(0);
      expect(applied.stdout).toContain("applied");
      const [tiers] = await storeRows(store, "select value from options where key = 'ModelPriceTiers'");
      expect(JSON.parse(String(tiers!.value))["sync-model-a"]).toEqual([{ above: 200000, model_ratio: 3, completion_ratio: 3.75 }]);
      const refused = await runSwitchyard(["prices", "sync", `http://localhost:${source.port}/switchyard.json`], env);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain("switchyard prices: This address is not allowed (plain http)");
      const usage = await runSwitchyard(["prices", "sync"], env);
      expect(usage.exitCode).toBe(2);
    } finally {
      await store.dispose();
    }
  });
});
