// Page numbers come from query strings and are bounded in one place (services/paging.ts):
// ?p=1e20 used to answer 500 ("datatype mismatch") on every list endpoint and list page
// (issue 15 §6). Any p gives a page: empty past the end, the first one for nonsense.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rootSession, type ApiSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  await root.post("/api/token/", { name: "paged", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
});
afterAll(() => server.stop());

const endpoints = [
  "/api/log/",
  "/api/log/self",
  "/api/user/",
  "/api/user/search?keyword=root",
  "/api/token/",
  "/api/token/search?keyword=paged",
  "/api/channel/",
  "/api/channel/search?keyword=x",
  "/api/redemption/",
  "/api/redemption/search?keyword=x",
];
const pages = ["/log", "/user", "/token", "/channel", "/redemption"];
const hugePages = ["1e20", "9007199254740993", "1e400", "-5", "abc", "2.5"];

describe("page numbers", () => {
  test("every list endpoint answers any p with a page", async () => {
    for (const endpoint of endpoints) {
      for (const p of hugePages) {
        const answer = await root.get(`${endpoint}${endpoint.includes("?") ? "&" : "?"}p=${p}`);
        expect({ endpoint, p, status: answer.status, success: answer.body.success }).toEqual({ endpoint, p, status: 200, success: true });
      }
    }
  });

  test("past the end a list is empty; nonsense reads as the first page", async () => {
    const far = await root.get("/api/token/?p=1e20");
    expect(far.body.data).toEqual([]);
    const first = await root.get("/api/token/?p=abc");
    expect(first.body.data.map((token: { name: string }) => token.name)).toEqual(["paged"]);
    const users = await root.get("/api/user/?p=1e20");
    expect(users.body.data.items).toEqual([]);
    expect(users.body.data.total).toBe(1);
  });

  test("every list page renders for any p", async () => {
    for (const page of pages) {
      for (const p of hugePages) {
        const response = await fetch(`${server.url}${page}?p=${p}`, { headers: { cookie: root.cookie } });
        expect({ page, p, status: response.status }).toEqual({ page, p, status: 200 });
      }
    }
  });
});
