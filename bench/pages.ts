// Console page weights and /log render time. Starts the gateway on a new SQLite store, fills it
// with 1,000,000 log entries (all inside /log's default time range, so the default view has to
// count and page through every one of them), then:
//   - for each page of the channel/token/log/pricing/playground/chat area: the bytes of HTML,
//     CSS and JavaScript it makes the browser load (raw and gzip), and whether React is among them;
//   - the server time to render /log (whole page, the table region, each filter the log's
//     indexes serve, the summary chips) as the admin and as a user, median of repeated requests
//     over loopback. The filters are what the log's indexes are kept for (issue 14: each one
//     under 50 ms at 1M rows).
// Writes the "pages" section of docs/PERFORMANCE.md.
import { Database } from "bun:sqlite";
import { buildAssets } from "../src/build/build-assets.ts";
import { type ApiSession, newUserSession, rootSession } from "../tests/helpers/api-session.ts";
import { startTestServer } from "../tests/helpers/test-server.ts";
import { kb, weigh, type Weight } from "./page-weights.ts";
import { writePerformanceSection } from "./performance-doc.ts";

const logRows = Number(process.env.PAGES_LOG_ROWS ?? 1_000_000);
const repeats = Number(process.env.PAGES_REPEATS ?? 30);

function startOfToday(): number {
  const date = new Date();
  date.setHours(0, 0, 0, 0);
  return Math.floor(date.getTime() / 1000);
}

/** Consumption entries (and one top-up in 50) between the start of today and now, for root and one user. */
function seedLogs(path: string, userId: number): void {
  const database = new Database(path);
  database.run("PRAGMA busy_timeout = 5000");
  const insert = database.prepare(
    `insert into logs (user_id, created_at, type, content, username, token_name, token_id, model_name, quota, prompt_tokens, completion_tokens, use_time, is_stream, channel_id, channel_name, "group", other)
     values (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?, ?, 1, ?, 'main', ?, ?)`,
  );
  const from = startOfToday();
  const span = Math.max(60, Math.floor(Date.now() / 1000) - from - 5);
  const models = ["gpt-4o-mini", "gpt-4o", "deepseek-chat", "claude-3-5-sonnet-20241022"];
  database.transaction(() => {
    for (let index = 0; index < logRows; index++) {
      const mine = index % 2 === 0;
      const other = JSON.stringify({
        frt: 300 + (index % 4000),
        model_ratio: 0.075,
        completion_ratio: 4,
        group_ratio: 1,
        model_price: -1,
        admin_info: { use_channel: ["1"] },
      });
      insert.run(
        mine ? userId : 1,
        from + Math.floor((index / logRows) * span),
        index % 50 === 1 ? 1 : 2,
        "模型倍率 0.08，补全倍率 4.00，分组倍率 1.00", // i18n-exempt: stored log text of the seeded entries
        mine ? "benchuser" : "root",
        mine ? "bench-token" : `root-token-${index % 5}`,
        models[index % models.length]!,
        20 + (index % 500),
        100 + (index % 900),
        20 + (index % 300),
        1 + (index % 30),
        1 + (index % 8),
        index % 10 === 0 ? "vip" : "default",
        other,
      );
    }
  })();
  database.close();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;

async function renderTimes(
  url: string,
  session: ApiSession,
  headers: Record<string, string> = {},
): Promise<{ median: number; p90: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let index = 0; index < repeats + 3; index++) {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie: session.cookie, ...headers } });
    bytes = (await response.arrayBuffer()).byteLength;
    if (index >= 3) times.push(performance.now() - started);
  }
  return { median: median(times), p90: percentile(times, 0.9), bytes };
}

export async function benchPages(): Promise<string> {
  await buildAssets();
  const server = await startTestServer();
  try {
    const root = await rootSession(server.url);
    const user = await newUserSession(server.url, "benchuser");
    await root.post("/api/channel/", {
      name: "main",
      type: 1,
      key: "sk-bench",
      models: "gpt-4o-mini,gpt-4o,deepseek-chat",
      group: "default,vip",
      tag: "bench",
    });
    await root.post("/api/token/", { name: "root-token", count: 5 });
    seedLogs(server.store.env.SQLITE_PATH!, user.userId!);

    const pages = ["/channel", "/token", "/log", "/pricing", "/playground", "/chat/0"];
    const weights: Weight[] = [];
    for (const path of pages) weights.push(await weigh(server, root, path));
    const htmx = { "hx-request": "true" };
    const all = logRows.toLocaleString("en");
    const timings: [string, { median: number; p90: number; bytes: number }][] = [
      [`admin, whole page (default range: all ${all} entries)`, await renderTimes(`${server.url}/log`, root)],
      ["admin, table region only (htmx paging)", await renderTimes(`${server.url}/log?p=500`, root, { ...htmx, "hx-target": "log-table" })],
      ["admin, filtered by model (a quarter of the entries)", await renderTimes(`${server.url}/log?model_name=gpt-4o`, root)],
      ["admin, filtered by token (a tenth)", await renderTimes(`${server.url}/log?token_name=root-token-1`, root)],
      ["admin, filtered by user name (half)", await renderTimes(`${server.url}/log?username=benchuser`, root)],
      ["admin, filtered by channel (an eighth)", await renderTimes(`${server.url}/log?channel=3`, root)],
      ["admin, filtered by group (a tenth)", await renderTimes(`${server.url}/log?group=vip`, root)],
      ["admin, filtered by type (top-ups, 2 %)", await renderTimes(`${server.url}/log?type=1`, root)],
      [
        "admin, filtered by model and token (two filters at once)",
        await renderTimes(`${server.url}/log?model_name=gpt-4o&token_name=root-token-1`, root),
      ],
      [
        "admin, pager of the two-filter page (loaded after the page)",
        await renderTimes(`${server.url}/log?model_name=gpt-4o&token_name=root-token-1`, root, { ...htmx, "hx-target": "log-table-pager" }),
      ],
      [
        "admin, pager of the whole range (loaded after the page)",
        await renderTimes(`${server.url}/log`, root, { ...htmx, "hx-target": "log-table-pager" }),
      ],
      ["admin, summary chips (loaded after the page)", await renderTimes(`${server.url}/log`, root, { ...htmx, "hx-target": "log-stat" })],
      [`user, whole page (own ${(logRows / 2).toLocaleString("en")} entries)`, await renderTimes(`${server.url}/log`, user)],
    ];
    const rows = weights.map(
      (weight) =>
        `| \`${weight.page}\` | ${kb(weight.html)} (${kb(weight.htmlGzip)}) | ${kb(weight.css)} (${kb(weight.cssGzip)}) | ${kb(weight.js)} (${kb(weight.jsGzip)}) | ${weight.lazyJs ? `${kb(weight.lazyJs)} (${kb(weight.lazyJsGzip)})` : "-"} | ${weight.scripts} | ${weight.react ? "React (island)" : "none"} |`,
    );
    const renderRows = timings.map(
      ([label, time]) => `| ${label} | ${time.median.toFixed(1)} ms | ${time.p90.toFixed(1)} ms | ${kb(time.bytes)} |`,
    );
    const markdown = `## Pages

\`bench/pages.ts\`: the gateway on a new SQLite store with ${logRows.toLocaleString("en")} log entries, all
inside \`/log\`'s default time range; pages fetched as root over loopback. Sizes are uncompressed (gzip in
brackets: the server compresses pages and assets itself, see "Compressed answers"); JavaScript counts every module the page loads, split
chunks included; "after load" is what an island imports once the page is shown (the playground's
answer renderer: marked, DOMPurify, highlight.js with 16 languages). Aim: pages without islands
send no framework JavaScript; \`/log\` renders in under 50 ms with any of its filters, one or several
(each has its index: \`logs\` keeps the time index, user id, type, model, token, user name,
channel and group each with the time, and the unique request id that keeps a request from being
charged twice).

| page | HTML | CSS | JavaScript | after load | scripts | framework |
|---|---|---|---|---|---|---|
${rows.join("\n")}

\`/log\` server time (request to last byte, median and 90th percentile of ${repeats}):

| view | median | p90 | HTML |
|---|---|---|---|
${renderRows.join("\n")}

The summary chips (quota sum, RPM, TPM over the filter) and, when the page is full, the pager
with its total are separate requests the page makes once it is shown, so the rows never wait for
the sums or the count (with two filters the count reads every entry of the narrower one).`;
    writePerformanceSection("pages", markdown);
    return markdown;
  } finally {
    await server.stop();
  }
}

if (import.meta.main) console.log(await benchPages());
