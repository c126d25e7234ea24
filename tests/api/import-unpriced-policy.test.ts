// `switchyard import` keeps what the source did with a model it had no price for (issue 24 §4):
// one-api billed such a model at ratio 30, new-api refuses it unless its self-use mode is on
// (then it bills it at ratio 37.5). The import sets UnpricedModelPolicy and UnpricedModelRatio
// to match, says so in its summary, and the relay then behaves as the source did.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { createLegacyDatabase, type LegacyDatabase } from "../fixtures/legacy-databases.ts";
import { seedNewApi, seedOneApi } from "../fixtures/legacy-data.ts";
import { newApiCurrent, oneApiV06 } from "../fixtures/legacy-schemas.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { storeRows } from "../helpers/store-rows.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";

let upstream: Upstream;
beforeAll(async () => {
  upstream = await startUpstream();
});
afterAll(() => upstream.stop());

async function importInto(source: LegacyDatabase): Promise<{ summary: string; options: Record<string, string>; store: TestStore }> {
  const store = await createTestStore();
  const result = await runSwitchyard(["import", source.source], store.env);
  expect(result.stderr).not.toContain("switchyard import:");
  expect(result.exitCode).toBe(0);
  const rows = await storeRows(
    store,
    "select key, value from options where key in ('UnpricedModelPolicy', 'UnpricedModelRatio', 'SelfUseModeEnabled')",
  );
  return { summary: result.stdout, options: Object.fromEntries(rows.map((row) => [row.key, String(row.value)])), store };
}

describe("the unpriced-model policy follows the source", () => {
  const sources: LegacyDatabase[] = [];
  const stores: TestStore[] = [];
  afterAll(async () => {
    for (const store of stores) await store.dispose();
    for (const source of sources) await source.dispose();
  });

  test("new-api with self-use mode off refuses, as new-api does", async () => {
    const source = await createLegacyDatabase("sqlite", newApiCurrent);
    sources.push(source);
    await seedNewApi(source, upstream.url, "current");
    const { summary, options, store } = await importInto(source);
    stores.push(store);
    expect(options).toEqual({ UnpricedModelPolicy: "refuse", UnpricedModelRatio: "30" });
    expect(summary).toContain(
      "models without a price: refused, as the source did (new-api refuses models without a price (self-use mode off))",
    );
  });

  test("new-api in self-use mode bills at its ratio 37.5, and the switch is not reported as lost", async () => {
    const source = await createLegacyDatabase("sqlite", newApiCurrent);
    sources.push(source);
    await seedNewApi(source, upstream.url, "current");
    await source.insert("options", [{ key: "SelfUseModeEnabled", value: "true" }]);
    const { summary, options, store } = await importInto(source);
    stores.push(store);
    expect(options).toEqual({ UnpricedModelPolicy: "ratio", UnpricedModelRatio: "37.5" });
    expect(summary).toContain("models without a price: billed at ratio 37.5");
    expect(summary).not.toMatch(/not imported\): [^\n]*SelfUseModeEnabled/);
  });

  test("one-api bills at ratio 30", async () => {
    const source = await createLegacyDatabase("sqlite", oneApiV06);
    sources.push(source);
    await seedOneApi(source, upstream.url);
    const { summary, options, store } = await importInto(source);
    stores.push(store);
    expect(options).toEqual({ UnpricedModelPolicy: "ratio", UnpricedModelRatio: "30" });
    expect(summary).toContain(
      "models without a price: billed at ratio 30, as the source did (one-api bills models without a price at ratio 30)",
    );
  });
});
