// Islands by reference (islands/island-definition.ts): a page loads the bundle of every island it
// rendered and of no other. Pages are fetched from the real server and their island script tags
// compared with the islands their HTML holds (data-island, written by <Island> and <ScriptIsland>).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
});
afterAll(() => server.stop());

type PageIslands = { path: string; rendered: string[]; loaded: string[]; scripts: string[] };

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

async function pageIslands(path: string, signedIn: boolean): Promise<PageIslands> {
  const response = await fetch(server.url + path, { redirect: "manual", headers: signedIn ? { cookie: root.cookie } : {} });
  expect(response.status).toBe(200);
  const html = await response.text();
  const rendered = sorted([...html.matchAll(/\sdata-island="([^"]+)"/g)].map((match) => match[1]!));
  const scripts = [...html.matchAll(/<script type="module" src="(\/assets\/[^"]+\.island-[^"]+\.js)"/g)].map((match) => match[1]!);
  const loaded = scripts.map((src) => /^\/assets\/(.+)\.island-[^/]+\.js$/.exec(src)![1]!);
  return { path, rendered, loaded: sorted(loaded), scripts };
}

/** Every island folder the build bundles (islands/<name>/<name>.island.tsx). */
const islandFolders = () => {
  const islands = join(import.meta.dir, "..", "..", "islands");
  return readdirSync(islands).filter((name) => existsSync(join(islands, name, `${name}.island.tsx`)));
};

const publicPages = ["/login", "/login?step=2fa", "/reset", "/register", "/about"];
const signedInPages = [
  "/token",
  "/log",
  "/audit",
  "/channel",
  "/topup",
  "/detail",
  "/playground",
  "/setting",
  "/setting?tab=model",
  "/setting?tab=prices",
  "/setting?tab=system",
  "/user",
];

describe("island scripts", () => {
  test("each page loads exactly the islands it rendered, each once, and every island is rendered by some page", async () => {
    expect((await root.put("/api/option/", { key: "DataExportEnabled", value: "true" })).body.success).toBe(true);
    // Side by side, twice: what one request renders must not leak into another's document.
    const fetches = [...publicPages.map((path) => pageIslands(path, false)), ...signedInPages.map((path) => pageIslands(path, true))];
    const pages = await Promise.all([...fetches, ...publicPages.map((path) => pageIslands(path, false))]);
    const again = await Promise.all([...signedInPages.map((path) => pageIslands(path, true))]);
    for (const page of [...pages, ...again]) {
      expect({ path: page.path, islands: page.loaded }).toEqual({ path: page.path, islands: page.rendered });
      expect(page.scripts.length).toBe(page.loaded.length);
    }
    const byPath = new Map(pages.map((page) => [page.path, page.rendered]));
    expect(byPath.get("/reset")).toEqual([]);
    expect(byPath.get("/token")).toEqual([]);
    expect(byPath.get("/login")).toEqual(["account-security"]);
    expect(byPath.get("/setting?tab=prices")).toEqual(["price-sync", "unpriced-models"]);
    expect(sorted(pages.flatMap((page) => page.rendered))).toEqual(sorted(islandFolders()));
    for (const src of new Set(pages.flatMap((page) => page.scripts))) {
      const script = await fetch(server.url + src);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toContain("javascript");
    }
  });

  test("an island a page leaves out is not loaded: /detail without data export has no dashboard", async () => {
    expect((await root.put("/api/option/", { key: "DataExportEnabled", value: "true" })).body.success).toBe(true);
    expect((await pageIslands("/detail", true)).loaded).toEqual(["dashboard"]);
    expect((await root.put("/api/option/", { key: "DataExportEnabled", value: "false" })).body.success).toBe(true);
    const without = await pageIslands("/detail", true);
    expect(without.rendered).toEqual([]);
    expect(without.loaded).toEqual([]);
  });
});
