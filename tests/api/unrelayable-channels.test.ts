// Channels of a kind this build cannot relay (issue 17): such a channel could never answer, so
// it is not enabled, alone or with its tag; it can still be renamed, disabled and deleted. Every
// kind of the catalogue can be relayed (tests/unit/console-formats.test.ts), so the channel here
// gets an unknown kind straight in the store, as an import from another gateway could bring.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

const refusal = "该渠道类型暂不支持转发，无法创建或启用此类渠道";

async function createChannel(name: string): Promise<number> {
  const created = await root.post("/api/channel/", {
    name,
    type: ChannelType.OpenAI,
    key: `sk-${name}`,
    models: "gpt-4o-mini",
    group: "default",
    tag: "mixed",
  });
  expect(created.body.success).toBe(true);
  return (created.body.data as { id: number }[])[0]!.id;
}
const statusOf = async (id: number) =>
  Number((await server.store.query<{ status: number }>("select status from channels where id = ?", id))[0]!.status);

describe("channels of a kind without a relay", () => {
  test("are not enabled, alone or by their tag, and can still be edited and disabled", async () => {
    const orphan = await createChannel("orphan-kind");
    const normal = await createChannel("normal-kind");
    await server.store.query("update channels set type = 9999, status = 2 where id = ?", orphan);
    await server.store.query("update channels set status = 2 where id = ?", normal);

    const enable = await root.put("/api/channel/", { id: orphan, status: 1 });
    expect(enable.body).toEqual({ success: false, message: refusal });
    expect(await statusOf(orphan)).toBe(2);

    root.otherCookies.set("lang", "lang=en");
    const english = await root.put("/api/channel/", { id: orphan, status: 1 });
    root.otherCookies.delete("lang");
    expect(english.body.success).toBe(false);
    expect(english.body.message).toBe("This build cannot relay channels of this type: they cannot be created or enabled");

    expect((await root.put("/api/channel/", { id: orphan, name: "orphan-renamed" })).body.success).toBe(true);

    const tagEnabled = await root.post("/api/channel/tag/enabled", { tag: "mixed" });
    expect(tagEnabled.body.success).toBe(true);
    expect([await statusOf(normal), await statusOf(orphan)]).toEqual([1, 2]);

    // Changing an enabled channel to such a kind is refused too (the catalogue's kinds are all
    // relayable, so an unknown kind is refused earlier, with the form's message).
    const retype = await root.put("/api/channel/", { id: normal, type: 9999 });
    expect(retype.body.success).toBe(false);
    expect(await statusOf(normal)).toBe(1);
  });
});
