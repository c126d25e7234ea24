// The /log page over HTTP: new-api's colour bands for use time and first-token time, rows
// that expand to their `other` details (the retry chain for admins only), the default time range
// (start of today to an hour ahead) and the summary chips.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { type ApiSession, newUserSession, rootSession } from "../helpers/api-session.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";

let server: TestServer;
let root: ApiSession;
let carol: ApiSession;
const now = Math.floor(Date.now() / 1000);

type Entry = { model: string; useTime: number; frt: number; at?: number; quota?: number; mapped?: string };

async function insert(entry: Entry) {
  const other = {
    frt: entry.frt,
    model_ratio: 1.25,
    completion_ratio: 4,
    group_ratio: 1.5,
    model_price: -1,
    ...(entry.mapped ? { is_model_mapped: true, upstream_model_name: entry.mapped } : {}),
    admin_info: { use_channel: ["3", "7"] },
  };
  await server.store.query(
    'insert into logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, channel_name, "group", other) values (?, ?, 2, ?, ?, ?, 1, ?, ?, 10, 5, ?, ?, 7, ?, ?, ?)',
    carol.userId,
    entry.at ?? now - 60,
    "",
    "carol",
    "band-token",
    entry.model,
    entry.quota ?? 1000,
    entry.useTime,
    server.store.dialect === "pg" ? true : 1,
    "upstream-b",
    "default",
    JSON.stringify(other),
  );
}

beforeAll(async () => {
  server = await startTestServer();
  root = await rootSession(server.url);
  carol = await newUserSession(server.url, "carol");
  await insert({ model: "fast-model", useTime: 5, frt: 2000, mapped: "fast-upstream" });
  await insert({ model: "slow-model", useTime: 150, frt: 5000, quota: 1_250_000 });
  await insert({ model: "stuck-model", useTime: 400, frt: 12000 });
  await insert({ model: "old-model", useTime: 1, frt: 100, at: now - 3 * 86400 });
});
afterAll(() => server.stop());

const html = async (path: string, session: ApiSession, headers: Record<string, string> = {}) => {
  const response = await fetch(server.url + path, { headers: { cookie: session.cookie, ...headers } });
  expect(response.status).toBe(200);
  return response.text();
};
const rowOf = (page: string, model: string) => {
  const row = [...page.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((match) => match[1]!).find((cells) => cells.includes(`>${model}<`));
  expect(row).toBeDefined();
  return row!;
};
const badge = (style: string, label: string) => new RegExp(`class="badge badge-sm whitespace-nowrap ${style}"[^>]*>${label}<`);

describe("/log page", () => {
  test("use time and first-token time in the spec's colour bands", async () => {
    const page = await html("/log", carol);
    expect(rowOf(page, "fast-model")).toMatch(badge("badge-success", "5 秒"));
    expect(rowOf(page, "fast-model")).toMatch(badge("badge-success", "首字 2.0 秒"));
    expect(rowOf(page, "slow-model")).toMatch(badge("badge-warning", "150 秒"));
    expect(rowOf(page, "slow-model")).toMatch(badge("badge-warning", "首字 5.0 秒"));
    expect(rowOf(page, "stuck-model")).toMatch(badge("badge-error", "400 秒"));
    expect(rowOf(page, "stuck-model")).toMatch(badge("badge-error", "首字 12.0 秒"));
  });

  test("the default range starts today: older entries need a wider filter", async () => {
    const page = await html("/log", carol);
    expect(page).not.toContain(">old-model<");
    const wider = await html(`/log?start_timestamp=${now - 7 * 86400}`, carol);
    expect(wider).toContain(">old-model<");
  });

  test("rows expand to ratios, first-token time and the real model; the retry chain only for admins", async () => {
    const own = rowOf(await html("/log", carol), "fast-model");
    expect(own).toContain("<summary");
    for (const text of ["模型倍率", ">1.25<", "补全倍率", "分组倍率", ">1.5<", "首字时间", "2000 毫秒", "实际模型", ">fast-upstream<"])
      expect(own).toContain(text);
    expect(own).not.toContain("重试链路");
    expect(own).not.toContain("upstream-b");
    const admin = rowOf(await html("/log", root), "fast-model");
    expect(admin).toContain("重试链路");
    expect(admin).toContain("3 → 7");
    expect(admin).toContain('hx-get="/log?user_info=');
  });

  test("the CSV export's columns are the table's, in the table's order (the stream flag beside the use time)", async () => {
    const named: Record<string, string> = { quot: '"', amp: "&", lt: "<", gt: ">", apos: "'" };
    const decode = (text: string) =>
      text.replace(/&(#\d+|[a-z]+);/g, (entity, name: string) =>
        name.startsWith("#") ? String.fromCharCode(Number(name.slice(1))) : (named[name] ?? entity),
      );
    const exportOf = (page: string) => {
      const labels = JSON.parse(decode(/data-labels="([^"]*)"/.exec(page)![1]!)) as Record<string, string>;
      return Object.entries(labels).filter(([field]) => !field.startsWith("type:"));
    };
    const headersOf = (page: string) => [...page.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((match) => decode(match[1]!));
    for (const [session, fields] of [
      [
        carol,
        [
          "created_at",
          "token_name",
          "group",
          "type",
          "model_name",
          "use_time",
          "is_stream",
          "prompt_tokens",
          "completion_tokens",
          "quota",
          "content",
        ],
      ],
      [
        root,
        [
          "created_at",
          "channel",
          "username",
          "token_name",
          "group",
          "type",
          "model_name",
          "use_time",
          "is_stream",
          "prompt_tokens",
          "completion_tokens",
          "quota",
          "ip",
          "content",
        ],
      ],
    ] as const) {
      const page = await html("/log", session);
      const exported = exportOf(page);
      expect(exported.map(([field]) => field)).toEqual([...fields]);
      expect(exported.filter(([field]) => field !== "is_stream").map(([, title]) => title)).toEqual(headersOf(page));
    }
  });

  test("summary chips sum the filtered quota", async () => {
    const chips = await html("/log?model_name=slow-model", carol, { "hx-request": "true", "hx-target": "log-stat" });
    expect(chips).toContain("消耗额度");
    expect(chips).toContain(">$2.50<");
    expect(chips).toContain("RPM");
    expect(chips).toContain("TPM");
  });

  test("a full page shows its rows at once and counts its pager on a request of its own; a page that is not full shows its total", async () => {
    // Three entries today: a page of 10 is not full, so it is the last one and tells the total.
    const region = { "hx-request": "true", "hx-target": "log-table" };
    const first = await html("/log?page_size=10", carol, region);
    expect(first).toContain("共 1 页，3 条");
    expect(first).not.toContain('id="log-table-pager"');
    // Seven more make the page full: whether more follow is only known by counting.
    for (let index = 0; index < 7; index++) await insert({ model: "many-model", useTime: 1, frt: 100 });
    const full = await html("/log?page_size=10", carol, region);
    expect([...full.matchAll(/<tr class="">/g)].length).toBe(10);
    // Its own target: inheriting the table's, it would fetch the whole table again, forever.
    expect(full).toMatch(/<nav id="log-table-pager"[^>]*hx-trigger="load"[^>]*hx-target="this"/);
    expect(full).not.toContain("共 ");
    const pager = await html("/log?page_size=10", carol, { "hx-request": "true", "hx-target": "log-table-pager" });
    expect(pager).toContain('id="log-table-pager"');
    expect(pager).toContain("共 1 页，10 条");
    expect(pager).toContain('hx-target="#log-table"');
    const filtered = await html("/log?page_size=10&model_name=many-model", carol, { "hx-request": "true", "hx-target": "log-table-pager" });
    expect(filtered).toContain("共 1 页，7 条");
  });

  test("with the browser's zone in the tz cookie, today starts at its midnight and times are in it; an unknown zone is ignored", async () => {
    const zone = "Asia/Kolkata";
    const wall = (seconds: number, timeZone: string) =>
      new Intl.DateTimeFormat("sv-SE", {
        timeZone,
        year: "numeric",
        month: "2-digit",
        day: "2-digit",
        hour: "2-digit",
        minute: "2-digit",
        second: "2-digit",
      }).format(seconds * 1000);
    const page = await html("/log?model_name=fast-model", carol, { cookie: `${carol.cookie}; tz=${encodeURIComponent(zone)}` });
    // The start field carries Kolkata's midnight (its text is filled in by the browser).
    const start = Number(/id="log-start_timestamp"[^>]*data-unix="(\d+)"/.exec(page)?.[1]);
    expect(wall(start, zone).endsWith("00:00:00")).toBe(true);
    expect(now - start).toBeLessThan(86_400);
    expect(now - start).toBeGreaterThanOrEqual(0);
    // The row's time is written in Kolkata's zone, on a <time> the browser re-renders in its own.
    const time = /<time datetime="([^"]+)" data-local-time="(\d+)"[^>]*>([^<]+)<\/time>/.exec(rowOf(page, "fast-model"));
    expect(time).not.toBeNull();
    expect(time![3]).toBe(wall(Number(time![2]), zone));
    expect(time![1]).toBe(new Date(Number(time![2]) * 1000).toISOString());
    // A zone the server does not know: the page still renders, in the server's own zone.
    const unknown = await html("/log?model_name=fast-model", carol, { cookie: `${carol.cookie}; tz=Mars%2FOlympus` });
    const serverTime = /<time [^>]*data-local-time="(\d+)"[^>]*>([^<]+)<\/time>/.exec(rowOf(unknown, "fast-model"));
    expect(serverTime![2]).toBe(wall(Number(serverTime![1]), Intl.DateTimeFormat().resolvedOptions().timeZone));
  });
});
