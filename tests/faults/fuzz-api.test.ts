// Property-based fuzzing of /api (plan I1, Z2): fast-check draws a route, a caller (root's
// session or nobody), query parameters and a body of known field names with hostile values
// (numbers past 2^53, wrong types, LIKE wildcards, SQL, deep JSON), plus odd headers. For every
// input the console API answers below 500 with its JSON envelope; afterwards the server still
// answers, and the ledger invariants hold. FAULTS_FUZZ_RUNS and FAULTS_SEED as in fuzz-relay.
import { afterAll, beforeAll, expect, test } from "bun:test";
import fc from "fast-check";
import type { ApiSession } from "../helpers/api-session.ts";
import { reportFigures, startFaultWorld, type FaultWorld } from "../helpers/fault-world.ts";
import { hostileValue } from "../helpers/fuzz-inputs.ts";

let world: FaultWorld;
let root: ApiSession;
beforeAll(async () => {
  world = await startFaultWorld();
  root = world.root;
});
afterAll(() => world.stop());

const runs = Number(process.env.FAULTS_FUZZ_RUNS ?? 300);
const seed = Number(process.env.FAULTS_SEED ?? Date.now() % 1_000_000);

const routes: [method: string, path: string][] = [
  ["GET", "/api/status"],
  ["GET", "/api/log/"],
  ["GET", "/api/log/self"],
  ["GET", "/api/log/stat"],
  ["GET", "/api/log/self/stat"],
  ["GET", "/api/token/"],
  ["GET", "/api/token/search"],
  ["GET", "/api/user/"],
  ["GET", "/api/user/search"],
  ["GET", "/api/channel/"],
  ["GET", "/api/channel/search"],
  ["GET", "/api/redemption/"],
  ["GET", "/api/redemption/search"],
  ["GET", "/api/data/"],
  ["GET", "/api/data/self"],
  ["GET", "/api/pricing"],
  ["GET", "/api/models"],
  ["GET", "/api/user/self"],
  ["GET", "/api/option/"],
  ["POST", "/api/token/"],
  ["PUT", "/api/token/"],
  ["POST", "/api/redemption/"],
  ["PUT", "/api/redemption/"],
  ["POST", "/api/channel/"],
  ["PUT", "/api/channel/"],
  ["POST", "/api/user/"],
  ["PUT", "/api/user/"],
  ["PUT", "/api/user/self"],
  ["POST", "/api/user/manage"],
  ["POST", "/api/user/topup"],
  ["POST", "/api/user/login"],
  ["POST", "/api/user/register"],
  ["PUT", "/api/option/"],
  ["DELETE", "/api/token/1"],
  ["DELETE", "/api/redemption/1"],
];

const queryNames = [
  "p",
  "page_size",
  "size",
  "keyword",
  "token",
  "type",
  "model_name",
  "username",
  "token_name",
  "channel",
  "group",
  "start_timestamp",
  "end_timestamp",
  "order",
  "sort",
  "id_sort",
  "status",
];
const fieldNames = [
  "id",
  "name",
  "username",
  "password",
  "original_password",
  "display_name",
  "key",
  "quota",
  "remain_quota",
  "unlimited_quota",
  "expired_time",
  "count",
  "models",
  "group",
  "type",
  "base_url",
  "model_mapping",
  "priority",
  "weight",
  "status",
  "role",
  "action",
  "value",
  "email",
  "model_limits",
  "allow_ips",
  "used_quota",
];
const optionKeys = [
  "ModelRatio",
  "GroupRatio",
  "CompletionRatio",
  "QuotaPerUnit",
  "TopUpLink",
  "Notice",
  "RetryTimes",
  "ChannelDisableThreshold",
  "SystemName",
  "Logo",
  "Footer",
  "QuotaRemindThreshold",
];

/** Strings aimed at queries and parsers: LIKE wildcards, SQL, paths, control characters. */
const nastyText = fc.constantFrom(
  "%",
  "%%%%%%%%%%",
  "_".repeat(500),
  "' or 1=1 --",
  '"; drop table users; --',
  "\\",
  "../../etc/passwd",
  "\u0000",
  "1e20",
  "9007199254740993",
  "-5",
  "NaN",
  "[]",
  "{}",
);
const queryValue = fc.oneof(
  nastyText,
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  hostileValue.map((value) => String(value)),
);
const fieldValue = fc.oneof(hostileValue, nastyText);

const inputArbitrary = fc.record({
  route: fc.constantFrom(...routes),
  asRoot: fc.boolean(),
  query: fc.dictionary(fc.constantFrom(...queryNames), queryValue, { maxKeys: 4 }),
  body: fc.oneof(
    { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...fieldNames), fieldValue, { maxKeys: 6 }) },
    {
      weight: 1,
      arbitrary: fc.record({ key: fc.constantFrom(...optionKeys), value: fc.oneof(fieldValue, fc.string({ maxLength: 200 })) }),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
  ),
});

test(`${runs} fuzzed /api calls: never a 5xx, always the envelope`, async () => {
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(inputArbitrary, async ({ route: [method, path], asRoot, query, body }) => {
      const search = new URLSearchParams(Object.entries(query)).toString();
      const target = `${path}${search ? `?${search}` : ""}`;
      const sent = method === "GET" || method === "DELETE" ? undefined : body;
      const headers = { origin: world.server.url };
      const result = asRoot
        ? await root.request(method, target, sent, headers)
        : await fetch(world.server.url + target, {
            method,
            headers: { ...headers, "content-type": "application/json" },
            body: sent === undefined ? undefined : JSON.stringify(sent),
            signal: AbortSignal.timeout(45_000),
          }).then(async (response) => ({
            status: response.status,
            body: await response.text().then((text) => {
              try {
                return JSON.parse(text);
              } catch {
                return { raw: text };
              }
            }),
          }));
      statuses.set(result.status, (statuses.get(result.status) ?? 0) + 1);
      expect({
        method,
        target,
        status: result.status < 500 ? "below 500" : result.status,
        body: result.status < 500 ? undefined : result.body,
      }).toEqual({ method, target, status: "below 500", body: undefined });
      expect({ method, target, envelope: typeof result.body?.success === "boolean" }).toEqual({ method, target, envelope: true });
    }),
    { numRuns: runs, seed, endOnFailure: true },
  );
  expect((await fetch(`${world.server.url}/api/status`)).status).toBe(200);
  const figures = await world.check();
  reportFigures("fuzz-api", {
    seed,
    inputs: runs,
    statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
    charged: figures.consumptionLogs,
  });
}, 600_000);
