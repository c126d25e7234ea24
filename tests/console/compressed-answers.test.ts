// Compressed answers (issue 26): pages are compressed as they are sent, assets come in the form
// built for them, both with `Vary: Accept-Encoding` and the length of the bytes actually sent;
// the client's preference is honoured (brotli first, gzip, none); answers under 1 KB and every
// relay answer go as they are. Chromium receives /channel in brotli, and in gzip when that is
// all it asks for, and the page works either way. Runs against the executable too.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import zlib from "node:zlib";
import type { Browser, Page, Response as PageResponse } from "playwright-core";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { type ApiSession, rootSession } from "../helpers/api-session.ts";
import { launchBrowser, step } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let upstream: Upstream;
let browser: Browser;
let root: ApiSession;
let token: string;

beforeAll(async () => {
  upstream = await startUpstream();
  server = await startTestServer();
  root = await rootSession(server.url);
  const models = Array.from({ length: 40 }, (_, index) => `a-rather-long-model-name-for-the-menu-${index}`).join(",");
  await root.post("/api/channel/", {
    name: "compressed",
    type: 1,
    key: "sk-compressed",
    base_url: upstream.url,
    models: `gpt-4o-mini,${models}`,
  });
  const created = await root.post("/api/token/", { name: "compression", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
  token = `sk-${created.body.data[0].key}`;
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await upstream?.stop();
});

type Wire = { status: number; headers: Headers; bytes: Uint8Array };

/** What crossed the wire: Bun's fetch is told not to decode it. */
async function wire(path: string, acceptEncoding: string, headers: Record<string, string> = {}): Promise<Wire> {
  const response = await fetch(server.url + path, {
    headers: { cookie: root.cookie, "New-Api-User": String(root.userId), "accept-encoding": acceptEncoding, ...headers },
    decompress: false,
  });
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) };
}

function decode(answer: Wire): string {
  const encoding = answer.headers.get("content-encoding");
  const bytes =
    encoding === "br" ? zlib.brotliDecompressSync(answer.bytes) : encoding === "gzip" ? zlib.gunzipSync(answer.bytes) : answer.bytes;
  return new TextDecoder().decode(bytes);
}

/** Each page carries a fresh nonce and numbers its island props; everything else is the same page. */
const withoutNonces = (html: string) => html.replace(/nonce(-|=")[0-9a-f]{32}/g, "nonce").replace(/(island-props-[a-z-]+)-\d+/g, "$1");

function expectHonestLength(answer: Wire): void {
  expect(Number(answer.headers.get("content-length"))).toBe(answer.bytes.byteLength);
}

describe("pages", () => {
  test("brotli, gzip or nothing, as the client prefers; Vary and length always right", async () => {
    const plain = await wire("/channel", "identity");
    expect(plain.status).toBe(200);
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(plain.headers.get("vary")).toBe("Accept-Encoding");
    expectHonestLength(plain);
    const cases: [string, string][] = [
      ["gzip, deflate, br, zstd", "br"],
      ["gzip", "gzip"],
      ["br;q=0, gzip", "gzip"],
      ["gzip;q=0.5, br;q=0.9", "br"],
      ["*", "br"],
      ["deflate", "identity"],
    ];
    for (const [accepted, expected] of cases) {
      const answer = await wire("/channel", accepted);
      expect([accepted, answer.headers.get("content-encoding") ?? "identity"]).toEqual([accepted, expected]);
      expect(answer.headers.get("vary")).toBe("Accept-Encoding");
      expect(answer.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(answer.headers.get("content-security-policy")).toContain("script-src");
      expectHonestLength(answer);
      expect(withoutNonces(decode(answer))).toBe(withoutNonces(decode(plain)));
      if (expected !== "identity") expect(answer.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 4);
    }
  });

  test("htmx regions are compressed like pages; answers under 1 KB go as they are", async () => {
    const region = await wire("/channel", "br", { "hx-request": "true", "hx-target": "channel-table" });
    expect(region.headers.get("content-encoding")).toBe("br");
    expectHonestLength(region);
    expect(decode(region)).toContain('id="channel-table"');
    const chips = await wire("/log", "br", { "hx-request": "true", "hx-target": "log-stat" });
    expect(chips.status).toBe(200);
    expect(chips.bytes.byteLength).toBeLessThan(1024);
    expect(chips.headers.get("content-encoding")).toBeNull();
    expect(chips.headers.get("vary")).toBe("Accept-Encoding");
    expectHonestLength(chips);
  });

  test("error pages are compressed too", async () => {
    const missing = await wire("/no/such/page", "gzip");
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-encoding")).toBe("gzip");
    expectHonestLength(missing);
    expect(decode(missing)).toContain("404");
  });
});

describe("assets", () => {
  test("the form built for each, with its type, Vary and length; decoded it is the file", async () => {
    const page = decode(await wire("/channel", "identity"));
    const css = /href="(\/assets\/app-[^"]+\.css)"/.exec(page)![1]!;
    const script = /src="(\/assets\/console-runtime-[^"]+\.js)"/.exec(page)![1]!;
    for (const [path, type] of [
      [css, "text/css"],
      [script, "text/javascript"],
    ] as const) {
      const plain = await wire(path, "identity");
      expect(plain.headers.get("content-encoding")).toBeNull();
      expect(plain.headers.get("vary")).toBe("Accept-Encoding");
      expect(plain.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expectHonestLength(plain);
      for (const encoding of ["br", "gzip"]) {
        const answer = await wire(path, encoding);
        expect(answer.headers.get("content-encoding")).toBe(encoding);
        expect(answer.headers.get("content-type")).toStartWith(type);
        expect(answer.headers.get("vary")).toBe("Accept-Encoding");
        expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expectHonestLength(answer);
        expect(decode(answer)).toBe(decode(plain));
        expect(answer.bytes.byteLength).toBeLessThan(plain.bytes.byteLength / 2);
      }
    }
    // The same file twice is the same bytes: built once, not compressed per request.
    const first = await wire(css, "br");
    const second = await wire(css, "br");
    expect(Buffer.from(second.bytes).equals(Buffer.from(first.bytes))).toBe(true);
  });

  test("the variants are no URLs of their own", async () => {
    const page = decode(await wire("/channel", "identity"));
    const css = /href="(\/assets\/app-[^"]+\.css)"/.exec(page)![1]!;
    expect((await wire(`${css}.br`, "identity")).status).toBe(404);
  });
});

describe("relay", () => {
  test("answers, streamed or whole, are never compressed", async () => {
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const body = (stream: boolean) =>
      JSON.stringify({ model: "gpt-4o-mini", stream, messages: [{ role: "user", content: "hi ".repeat(400) }] });
    for (const stream of [false, true]) {
      const response = await fetch(`${server.url}/v1/chat/completions`, {
        method: "POST",
        headers: { ...headers, "accept-encoding": "br, gzip" },
        body: body(stream),
        decompress: false,
      });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-encoding")).toBeNull();
      const text = await response.text();
      expect(text).toContain(stream ? "data: [DONE]" : "chat.completion");
    }
    const models = await fetch(`${server.url}/v1/models`, { headers: { ...headers, "accept-encoding": "br" }, decompress: false });
    expect(models.headers.get("content-encoding")).toBeNull();
    expect((await models.json()).data.length).toBeGreaterThan(40);
  });
});

describe("in Chromium", () => {
  /** Every answer of one visit to /channel, with the bytes the network carried for its body. */
  async function visit(
    page: Page,
  ): Promise<{ url: string; encoding: string | undefined; vary: string | undefined; sent: number; length: number }[]> {
    const answers: PageResponse[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname.startsWith("/assets/") || new URL(response.url()).pathname === "/channel")
        answers.push(response);
    });
    await page.goto("/channel");
    await page.getByRole("button", { name: "添加渠道" }).click();
    await page.getByRole("heading", { name: "创建新的渠道" }).waitFor();
    return Promise.all(
      answers.map(async (response) => {
        const headers = await response.allHeaders();
        const sizes = await response.request().sizes();
        return {
          url: new URL(response.url()).pathname,
          encoding: headers["content-encoding"],
          vary: headers.vary,
          sent: sizes.responseBodySize,
          length: Number(headers["content-length"]),
        };
      }),
    );
  }

  for (const [name, extraHTTPHeaders, expected] of [
    ["brotli", undefined, "br"],
    ["gzip", { "accept-encoding": "gzip" }, "gzip"],
  ] as const) {
    test(`/channel arrives in ${name} and works`, async () => {
      const context = await browser.newContext({ baseURL: server.url, locale: "zh-CN", extraHTTPHeaders });
      const page = await context.newPage();
      // Signed in by the session cookie, so /channel is the first page: nothing comes from the cache.
      const [cookieName, cookieValue] = root.cookie.split("=") as [string, string];
      await context.addCookies([{ name: cookieName, value: cookieValue, url: server.url }]);
      await step(page, `compressed-${name}`, async () => {
        const answers = await visit(page);
        expect(answers.some((answer) => answer.url === "/channel")).toBe(true);
        expect(answers.filter((answer) => answer.url.endsWith(".js")).length).toBeGreaterThan(2);
        for (const answer of answers) {
          // Chunks under 1 KB have no compressed form: they go as they are, whatever was asked.
          const small = answer.encoding === undefined && answer.length < 1024;
          if (!small) expect([answer.url, answer.encoding, answer.vary]).toEqual([answer.url, expected, "Accept-Encoding"]);
          expect([answer.url, answer.sent]).toEqual([answer.url, answer.length]);
        }
        expect(answers.filter((answer) => answer.encoding === expected).length).toBeGreaterThan(4);
      });
      await context.close();
    });
  }
});
