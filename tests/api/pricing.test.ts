// GET /api/pricing and the /pricing page: priced models of enabled channels with their billing
// type, ratios and groups; group ratios and usable groups for visitors and for a user's group;
// unpriced and disabled models left out; group-adjusted prices on the page.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  const add = (name: string, models: string, group: string) =>
    root.post("/api/channel/", { name, type: ChannelType.OpenAI, key: `k-${name}`, models, group });
  await add("a", "gpt-4o-mini,dall-e-3,house-unpriced", "default,vip");
  await add("b", "gpt-4o", "svip");
  const off = await add("c", "deepseek-chat", "default");
  await root.put("/api/channel/", { id: off.body.data[0].id, status: 2 });
});
afterAll(() => server.stop());

type Row = {
  model_name: string;
  quota_type: number;
  model_ratio: number;
  model_price: number;
  completion_ratio: number;
  enable_groups: string[];
};
const pricing = async (session?: ApiSession) =>
  (session ? await session.get("/api/pricing") : { body: await (await fetch(`${server.url}/api/pricing`)).json() }).body;
const html = async (path: string, session?: ApiSession) =>
  (await fetch(server.url + path, { headers: session ? { cookie: session.cookie } : {} })).text();

describe("GET /api/pricing", () => {
  test("a visitor gets the priced, enabled models with the default usable groups", async () => {
    const body = await pricing();
    expect(body.success).toBe(true);
    const rows = body.data as Row[];
    expect(rows.map((row) => row.model_name)).toEqual(["dall-e-3", "gpt-4o", "gpt-4o-mini"]);
    expect(rows.find((row) => row.model_name === "gpt-4o-mini")).toEqual({
      model_name: "gpt-4o-mini",
      quota_type: 0,
      model_ratio: 0.075,
      model_price: 0,
      owner_by: "",
      completion_ratio: 4,
      enable_groups: ["default", "vip"],
      cache_ratio: 0.5,
    } as Row);
    expect(rows.find((row) => row.model_name === "dall-e-3")).toMatchObject({ quota_type: 1, model_price: 0.04 });
    expect(body.group_ratio).toEqual({ default: 1, vip: 1 });
    expect(body.usable_group).toEqual({ default: "默认分组", vip: "vip分组" });
  });

  test("a user's own group is added; option changes show at once", async () => {
    const user = await newUserSession(server.url, "svipuser");
    await server.store.query(`update users set "group" = 'svip' where username = 'svipuser'`);
    await root.put("/api/option/", { key: "GroupRatio", value: '{"default":1,"vip":2,"svip":6}' });
    const body = await pricing(user);
    expect(body.group_ratio).toEqual({ default: 1, vip: 2, svip: 6 });
    expect(body.usable_group.svip).toBe("用户分组");
    await root.put("/api/option/", { key: "ModelRatio", value: '{"gpt-4o-mini":0.5,"house-unpriced":2}' });
    const rows = (await pricing()).data as Row[];
    expect(rows.find((row) => row.model_name === "gpt-4o-mini")!.model_ratio).toBe(0.5);
    expect(rows.some((row) => row.model_name === "house-unpriced")).toBe(true);
    await root.put("/api/option/", { key: "ModelRatio", value: '{"gpt-4o-mini":0.075}' });
  });

  test("a script with the user's access token sees the user's groups; a wrong token gets the visitor's", async () => {
    const user = await newUserSession(server.url, "svipscript");
    await server.store.query(`update users set "group" = 'svip' where username = 'svipscript'`);
    const accessToken = (await user.get("/api/user/token")).body.data as string;
    const ask = async (authorization: string) =>
      (await (await fetch(`${server.url}/api/pricing`, { headers: { authorization, "New-Api-User": String(user.userId) } })).json()) as {
        usable_group: Record<string, string>;
      };
    expect((await ask(accessToken)).usable_group.svip).toBe("用户分组");
    expect((await ask("not-the-token")).usable_group.svip).toBeUndefined();
  });
});

describe("/pricing", () => {
  test("visitors see the default-group notice and prices per 1M tokens adjusted by the chosen group", async () => {
    const page = await html("/pricing");
    expect(page).toContain("您还未登陆，显示的价格为默认分组倍率");
    expect(page).toContain("输入 $0.15 / 1M tokens");
    expect(page).toContain("输出 $0.6 / 1M tokens");
    expect(page).toContain("$0.04 / 次");
    const vip = await html("/pricing?group=vip");
    expect(vip).toContain("输入 $0.3 / 1M tokens");
    expect(vip).not.toContain("gpt-4o<");
  });

  test("signed-in users get no notice; search, type filter and quota display", async () => {
    const page = await html("/pricing", root);
    expect(page).not.toContain("您还未登陆");
    const searched = await html("/pricing?keyword=dall&group=all", root);
    expect(searched).toContain("dall-e-3");
    expect(searched).not.toContain("gpt-4o-mini");
    const fixed = await html("/pricing?type=price&group=all", root);
    expect(fixed).not.toContain("gpt-4o-mini");
    await root.put("/api/option/", { key: "DisplayInCurrencyEnabled", value: "false" });
    expect(await html("/pricing?group=default", root)).toContain("输入 75000 / 1M tokens");
    await root.put("/api/option/", { key: "DisplayInCurrencyEnabled", value: "true" });
  });
});

describe("prices by prompt size and search by any part of a name (issues 27.3, 26.8)", () => {
  test("a tiered model carries its tiers in /api/pricing and shows them on /pricing", async () => {
    await root.post("/api/channel/", {
      name: "long",
      type: ChannelType.Gemini,
      key: "k-long",
      models: "gemini-2.5-pro,claude-sonnet-4-5-20250929",
      group: "default",
    });
    const rows = (await pricing()).data as (Row & { tiers?: unknown; cache_ratio?: number })[];
    expect(rows.find((row) => row.model_name === "gemini-2.5-pro")).toMatchObject({
      model_ratio: 0.625,
      completion_ratio: 8,
      cache_ratio: 0.1,
      tiers: [{ above: 200_000, model_ratio: 1.25, completion_ratio: 6 }],
    });
    expect(rows.find((row) => row.model_name === "claude-sonnet-4-5-20250929")).toMatchObject({
      tiers: [{ above: 200_000, model_ratio: 3, completion_ratio: 3.75 }],
    });
    const page = await html("/pricing?keyword=gemini&group=default");
    expect(page).toContain("输入 $1.25 / 1M tokens");
    expect(page).toContain("提示超过 200,000 tokens：输入 $2.5，输出 $15");
  });

  test("the table finds a model by any part of its name, in any order, whatever the separators", async () => {
    for (const keyword of ["sonnet 4.5", "4-5 SONNET", "25pro", "mini 4o"]) {
      const page = await html(`/pricing?group=all&keyword=${encodeURIComponent(keyword)}`, root);
      const expected = keyword === "25pro" ? "gemini-2.5-pro" : keyword === "mini 4o" ? "gpt-4o-mini" : "claude-sonnet-4-5-20250929";
      expect(page).toContain(expected);
      for (const other of ["dall-e-3", "gpt-4o-mini", "gemini-2.5-pro", "claude-sonnet-4-5-20250929"].filter((name) => name !== expected)) {
        expect(page).not.toContain(`>${other}<`);
      }
    }
  });
});
