// The API reference: GET /api/openapi.json against the routes the app really registers (walked
// from the composed Elysia app), the zod schemas behind its request bodies, and the console page
// admins read it on.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createApp } from "../../src/app.ts";
import { openSharedState } from "../../src/cache/open-shared-state.ts";
import { readConfig } from "../../src/config.ts";
import { catalogs } from "../../src/i18n/catalogs.ts";
import { apiOperations } from "../../src/openapi/api-operations.ts";
import { catalogueKeys, isDocumentedFace, openApiPath } from "../../src/openapi/openapi-document.ts";
import { relayOperations } from "../../src/openapi/relay-operations.ts";
import { loadOptions } from "../../src/services/options/options.ts";
import { tokenFields } from "../../src/services/tokens/token-input.ts";
import { loginInput } from "../../src/services/users/user-schemas.ts";
import { closeStore, openStore } from "../../src/store/client.ts";
import { ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let folder: string;
let registered: { method: string; path: string }[];

beforeAll(async () => {
  // The app composed in process, as the server composes it, to read its route table.
  folder = mkdtempSync(join(tmpdir(), "switchyard-openapi-"));
  const config = readConfig({ SQLITE_PATH: join(folder, "store.db") });
  await openStore(config.store);
  await openSharedState(undefined, "openapi-test:");
  await loadOptions();
  const app = createApp(config, "openapi-test-session-secret-0123456789");
  registered = app.routes.map((route) => ({ method: route.method, path: route.path })).filter((route) => isDocumentedFace(route.path));
});
afterAll(async () => {
  await closeStore();
  rmSync(folder, { recursive: true, force: true });
});

describe("/api/openapi.json", () => {
  let server: TestServer;
  let document: any;

  beforeAll(async () => {
    server = await startTestServer();
    const answer = await fetch(`${server.url}/api/openapi.json`);
    expect(answer.status).toBe(200);
    document = await answer.json();
  });
  afterAll(async () => {
    await server.stop();
  });

  test("is an OpenAPI 3.1 document of the running version", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.title).toBe("Switchyard API");
    expect(document.components.securitySchemes).toHaveProperty("relayToken");
  });

  test("every registered /api and /v1 route is in it, documented", () => {
    expect(registered.length).toBeGreaterThan(100);
    const missing: string[] = [];
    for (const route of registered) {
      const methods = route.method === "ALL" ? ["get", "post", "delete"] : [route.method.toLowerCase()];
      for (const method of methods) {
        const operation = document.paths[openApiPath(route.path)]?.[method];
        if (!operation || operation["x-undocumented"] || !operation.summary) missing.push(`${route.method} ${route.path}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test("every documented operation is a registered route (no stale entries)", () => {
    const routes = new Set(registered.map((route) => `${route.method} ${route.path}`));
    expect(catalogueKeys().filter((key) => !routes.has(key))).toEqual([]);
  });

  test("request bodies are the services' zod schemas, and the server validates what they say", async () => {
    const tokenBody = document.paths["/api/token/"].post.requestBody.content["application/json"].schema;
    const { $schema: _tokenDialect, ...tokenSchema } = z.toJSONSchema(tokenFields, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    expect(tokenBody).toEqual(tokenSchema);
    const loginBody = document.paths["/api/user/login"].post.requestBody.content["application/json"].schema;
    const { $schema: _loginDialect, ...loginSchema } = z.toJSONSchema(loginInput, { io: "input", unrepresentable: "any" }) as Record<
      string,
      unknown
    >;
    expect(loginBody).toEqual(loginSchema);
    expect(loginBody.required).toEqual(["username", "password"]);
    // What the document calls required, the server refuses to go without.
    const refused = await new ApiSession(server.url).post("/api/user/login", { username: "root" });
    expect(refused.body).toEqual({ success: false, message: "请输入用户名和密码！" });
    const optionBody = document.paths["/api/option/"].put.requestBody.content["application/json"].schema;
    expect(optionBody.anyOf).toHaveLength(2);
  });

  test("paths use OpenAPI templates with their parameters; access is stated", () => {
    const user = document.paths["/api/user/{id}"].get;
    expect(user.parameters).toContainEqual({ name: "id", in: "path", required: true, schema: { type: "string" } });
    expect(user["x-access"]).toBe("admin");
    expect(user.security).toEqual([
      { session: [], userId: [] },
      { accessToken: [], userId: [] },
    ]);
    expect(document.paths["/v1/chat/completions"].post.security).toEqual([{ relayToken: [] }]);
    expect(document.paths["/api/status"].get.security).toEqual([]);
    expect(Object.keys(document.paths).some((path) => path.includes(":"))).toBe(false);
  });

  test("the console's reference page is for admins", async () => {
    const visitor = await fetch(`${server.url}/api-reference`, { redirect: "manual" });
    expect(visitor.status).toBe(302);
    const common = await newUserSession(server.url, "reader");
    const forbidden = await fetch(`${server.url}/api-reference`, { headers: { cookie: common.cookie } });
    expect(forbidden.status).toBe(403);
    const root = await rootSession(server.url);
    const page = await fetch(`${server.url}/api-reference`, { headers: { cookie: root.cookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("API 参考");
    expect(html).toContain('data-operation="POST /v1/chat/completions"');
    expect(html).toContain('data-operation="PUT /api/user/"');
    expect(html).toContain("/api/openapi.json");
  });

  test("every operation's summary has its Chinese and its English", () => {
    const lacking = Object.entries({ ...apiOperations, ...relayOperations }).flatMap(([key, entry]) => {
      const chinese = catalogs.zh.apidocs[entry.summary];
      const english = catalogs.en.apidocs[entry.summary];
      const ok = chinese === entry.summary && /\p{Script=Han}/u.test(chinese) && english && !/\p{Script=Han}/u.test(english);
      return ok ? [] : [key];
    });
    expect(lacking).toEqual([]);
  });

  test("the summaries follow the language: English in the JSON (zh when asked), the visitor's on the page", async () => {
    expect(document.paths["/api/user/"].get.summary).toBe("List users");
    expect(document.paths["/v1/chat/completions"].post.summary).toBe("Chat completion, whole or streamed (server-sent events)");
    const chinese = await (await fetch(`${server.url}/api/openapi.json?lang=zh`)).json();
    expect(chinese.paths["/api/user/"].get.summary).toBe("列出用户");
    // Only the summaries change: paths, bodies and access are the same document.
    expect(Object.keys(chinese.paths)).toEqual(Object.keys(document.paths));
    expect(chinese.paths["/api/token/"].post.requestBody).toEqual(document.paths["/api/token/"].post.requestBody);

    const root = await rootSession(server.url);
    const summaryOf = async (language: string, operation: string) => {
      const html = await (await fetch(`${server.url}/api-reference`, { headers: { cookie: `${root.cookie}; lang=${language}` } })).text();
      const row = html.split(`data-operation="${operation}"`)[1]?.split("</summary>")[0] ?? "";
      return /<span class="text-base-content\/70">([^<]*)<\/span>/.exec(row)?.[1];
    };
    expect(await summaryOf("zh", "GET /api/user/")).toBe("列出用户");
    expect(await summaryOf("zh", "POST /v1/chat/completions")).toBe("对话补全，完整返回或流式返回（服务器发送事件）");
    expect(await summaryOf("en", "GET /api/user/")).toBe("List users");
    // Traditional Chinese and Japanese have no translations of these yet: English, not filler.
    expect(await summaryOf("zh-TW", "GET /api/user/")).toBe("List users");
    expect(await summaryOf("ja", "DELETE /api/user/{id}")).toBe("Delete a user");
  });
});
