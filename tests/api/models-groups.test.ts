// Model and group lists: built-in models per channel type, the models a user can call through
// the groups they may pick, group names for admins, and a user's selectable groups.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let server: TestServer;
let root: ApiSession;
let user: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  user = await newUserSession(server.url, "picker");
  const channel = (name: string, models: string, group: string) =>
    root.post("/api/channel/", { name, type: ChannelType.OpenAI, key: `k-${name}`, models, group });
  await channel("a", "model-default,model-shared", "default");
  await channel("b", "model-vip,model-shared", "vip");
  await channel("c", "model-svip", "svip");
  const disabled = await channel("d", "model-disabled", "default");
  await root.put("/api/channel/", { id: disabled.body.data[0].id, status: 2 });
});
afterAll(() => server.stop());

describe("models", () => {
  test("GET /api/models maps each channel type to its built-in model names", async () => {
    const data = (await user.get("/api/models")).body.data as Record<string, string[]>;
    expect(data["1"]).toContain("gpt-4o-mini");
    expect(data["43"]).toEqual(["deepseek-chat", "deepseek-reasoner"]);
    expect(data["36"]).toEqual(["suno_music", "suno_lyrics"]);
    expect((await new ApiSession(server.url).get("/api/models")).status).toBe(401);
  });

  test("GET /api/user/models: enabled models of every group the user may pick", async () => {
    expect((await user.get("/api/user/models")).body.data).toEqual(["model-default", "model-shared", "model-vip"]);
    await server.store.query(`update users set "group" = 'svip' where username = 'picker'`);
    expect((await user.get("/api/user/models")).body.data).toEqual(["model-default", "model-shared", "model-svip", "model-vip"]);
    await server.store.query(`update users set "group" = 'default' where username = 'picker'`);
  });
});

describe("groups", () => {
  test("GET /api/group/ lists the group names for admins only", async () => {
    expect((await root.get("/api/group/")).body.data).toEqual(["default", "vip", "svip"]);
    expect((await user.get("/api/group/")).body.message).toBe("无权进行此操作，权限不足");
  });

  test("GET /api/user/self/groups: usable groups with ratio and description, the user's own group added", async () => {
    expect((await user.get("/api/user/self/groups")).body.data).toEqual({
      default: { ratio: 1, desc: "默认分组" },
      vip: { ratio: 1, desc: "vip分组" },
    });
    await server.store.query(`update users set "group" = 'svip' where username = 'picker'`);
    expect((await user.get("/api/user/self/groups")).body.data.svip).toEqual({ ratio: 1, desc: "用户分组" });
    await root.put("/api/option/", { key: "UserUsableGroups", value: "{}" });
    expect((await user.get("/api/user/self/groups")).body.data).toEqual({ svip: { ratio: 1, desc: "用户分组" } });
  });
});
