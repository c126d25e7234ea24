// The Responses API state the gateway keeps (services/responses/stored-responses.ts) on the
// dialect the run uses: a chain of previous responses read back in order, item references by id
// (the newest copy, the caller's only), retention (expired rows are neither read nor kept by the
// sweep), the per-user size cap (oldest go first), and the rows going with their user.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { setClockOffset } from "../../src/clock.ts";
import { reloadOptions } from "../../src/services/options/options.ts";
import {
  conversationUpTo,
  findStoredResponse,
  inputItemsPage,
  itemsById,
  keepAnsweredResponse,
  keepResponseRoute,
  sweepStoredResponses,
} from "../../src/services/responses/stored-responses.ts";
import { closeStore, db, openStore, t } from "../../src/store/client.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let store: TestStore;
let alice: number;
let bob: number;

beforeAll(async () => {
  store = await createTestStore();
  await openStore(
    store.dialect === "pg" ? { dialect: "pg", url: store.env.SQL_DSN! } : { dialect: "sqlite", path: store.env.SQLITE_PATH! },
  );
  alice = (await db.insert(t.users).values({ username: "alice", password: "x" }).returning())[0]!.id;
  bob = (await db.insert(t.users).values({ username: "bob", password: "x" }).returning())[0]!.id;
});
afterAll(async () => {
  setClockOffset(0);
  await closeStore();
  await store.dispose();
});

const message = (id: string, role: string, text: string) => ({
  id,
  type: "message",
  role,
  content: [{ type: role === "assistant" ? "output_text" : "input_text", text }],
});

async function keep(userId: number, id: string, previous: string | null, input: string, output: string, padding = 0) {
  const kept = await keepAnsweredResponse({
    id,
    userId,
    model: "m",
    previousResponseId: previous,
    response: {
      id,
      object: "response",
      status: "completed",
      note: "x".repeat(padding),
      output: [message(`${id}-out`, "assistant", output)],
    },
    input: [message(`${id}-in`, "user", input)],
  });
  expect(kept).toBe(true);
}

async function setOption(key: string, value: string) {
  await db.insert(t.options).values({ key, value }).onConflictDoUpdate({ target: t.options.key, set: { value } });
  await reloadOptions([key]);
}

describe("kept responses", () => {
  test("a chain comes back oldest first, input before output; only to its owner", async () => {
    await keep(alice, "resp_a1", null, "one", "uno");
    await keep(alice, "resp_a2", "resp_a1", "two", "dos");
    await keep(alice, "resp_a3", "resp_a2", "three", "tres");
    const texts = (await conversationUpTo(alice, "resp_a3"))!.map((item: any) => item.content[0].text);
    expect(texts).toEqual(["one", "uno", "two", "dos", "three", "tres"]);
    expect(await conversationUpTo(bob, "resp_a3")).toBeUndefined();
    expect(await findStoredResponse(bob, "resp_a1")).toBeUndefined();
    const found = await findStoredResponse(alice, "resp_a2");
    expect(found).toMatchObject({ id: "resp_a2", channelId: 0, previousResponseId: "resp_a1", envelope: { status: "completed" } });
    expect(found!.envelope.output).toBeUndefined();
  });

  test("items by id: the caller's own, the newest copy", async () => {
    setClockOffset(2000);
    await keepAnsweredResponse({
      id: "resp_a4",
      userId: alice,
      model: "m",
      previousResponseId: null,
      response: { id: "resp_a4", status: "completed", output: [] },
      input: [message("resp_a1-out", "assistant", "uno, again")],
    });
    setClockOffset(0);
    const mine = await itemsById(alice, ["resp_a1-out", "resp_a2-in", "missing"]);
    expect([...mine.keys()].sort()).toEqual(["resp_a1-out", "resp_a2-in"]);
    expect((mine.get("resp_a1-out") as any).content[0].text).toBe("uno, again");
    expect((await itemsById(bob, ["resp_a1-out"])).size).toBe(0);
  });

  test("input items page forwards and backwards", async () => {
    await keepAnsweredResponse({
      id: "resp_page",
      userId: alice,
      model: "m",
      previousResponseId: null,
      response: { id: "resp_page", status: "completed", output: [] },
      input: ["p1", "p2", "p3"].map((id) => message(id, "user", id)),
    });
    expect((await inputItemsPage("resp_page", { limit: 2, order: "asc" })).items.map((item) => item.id)).toEqual(["p1", "p2"]);
    expect(await inputItemsPage("resp_page", { limit: 2, order: "asc", after: "p2" })).toMatchObject({
      hasMore: false,
      items: [{ id: "p3" }],
    });
    expect((await inputItemsPage("resp_page", { limit: 5, order: "desc" })).items.map((item) => item.id)).toEqual(["p3", "p2", "p1"]);
  });

  test("a route names the channel and keeps no content; a chain through it cannot be rebuilt here", async () => {
    await keepResponseRoute({ id: "resp_up", userId: alice, channelId: 7, model: "m", previousResponseId: null });
    expect(await findStoredResponse(alice, "resp_up")).toMatchObject({ channelId: 7, envelope: {} });
    await keep(alice, "resp_after_up", "resp_up", "x", "y");
    expect(await conversationUpTo(alice, "resp_after_up")).toBeUndefined();
  });
});

describe("retention and the size cap", () => {
  test("past the retention a response is not read, and the sweep removes it with its items", async () => {
    await setOption("ResponsesRetentionDays", "2");
    await keep(bob, "resp_b_old", null, "old", "old answer");
    setClockOffset(3 * 86400 * 1000);
    try {
      expect(await findStoredResponse(bob, "resp_b_old")).toBeUndefined();
      expect((await itemsById(bob, ["resp_b_old-in"])).size).toBe(0);
      await keep(bob, "resp_b_new", null, "new", "new answer");
      const swept = await sweepStoredResponses();
      expect(swept.expired).toBeGreaterThan(0);
      expect(await db.select().from(t.stored_responses).where(eq(t.stored_responses.id, "resp_b_old"))).toEqual([]);
      expect(await db.select().from(t.stored_response_items).where(eq(t.stored_response_items.response_id, "resp_b_old"))).toEqual([]);
      expect(await findStoredResponse(bob, "resp_b_new")).toBeDefined();
    } finally {
      setClockOffset(0);
      await setOption("ResponsesRetentionDays", "30");
    }
  });

  test("a user above the cap loses their oldest responses until the rest fits; others keep theirs", async () => {
    await setOption("ResponsesStoreUserLimitMB", "1");
    try {
      const carol = (await db.insert(t.users).values({ username: "carol", password: "x" }).returning())[0]!.id;
      for (let index = 0; index < 4; index++) {
        await keep(carol, `resp_c${index}`, null, `c${index}`, "answer", 400 * 1024);
        setClockOffset((index + 1) * 1000);
      }
      // 4 x 400 KB against a 1 MB cap: the two oldest go.
      const swept = await sweepStoredResponses();
      expect(swept.overCap).toBe(2);
      const left = await db.select({ id: t.stored_responses.id }).from(t.stored_responses).where(eq(t.stored_responses.user_id, carol));
      expect(left.map((row) => row.id).sort()).toEqual(["resp_c2", "resp_c3"]);
      expect(await findStoredResponse(alice, "resp_a1")).toBeDefined();
      // One response larger than the whole allowance is not kept at all.
      expect(
        await keepAnsweredResponse({
          id: "resp_huge",
          userId: carol,
          model: "m",
          previousResponseId: null,
          response: { id: "resp_huge", status: "completed", note: "x".repeat(1024 * 1024 + 1), output: [] },
          input: [],
        }),
      ).toBe(false);
    } finally {
      setClockOffset(0);
      await setOption("ResponsesStoreUserLimitMB", "200");
    }
  });

  test("a user's rows go with the user", async () => {
    const dave = (await db.insert(t.users).values({ username: "dave", password: "x" }).returning())[0]!.id;
    await keep(dave, "resp_d", null, "d", "d");
    await db.delete(t.users).where(eq(t.users.id, dave));
    expect(await db.select().from(t.stored_responses).where(eq(t.stored_responses.user_id, dave))).toEqual([]);
    expect(await db.select().from(t.stored_response_items).where(eq(t.stored_response_items.response_id, "resp_d"))).toEqual([]);
  });
});
