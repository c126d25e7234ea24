// Transfer sizes and compression cost (issue 26): what a browser receives for a cold visit of a
// few console pages (the page plus every stylesheet and script it loads, chunks included), as
// sent without compression, with gzip and with brotli (the bytes on the wire, not decoded), and
// what compressing a page costs the server (each page's HTML compressed at the levels the server
// uses and at the strongest ones, median of repeats, in this process). The store holds 13
// channels with 40 long model names each, as an operator's /channel would.
// Writes the "transfer" section of docs/PERFORMANCE.md (`npm run bench -- transfer`).
import zlib from "node:zlib";
import { buildAssets } from "../src/build/build-assets.ts";
import { compressPage } from "../src/http/compression.ts";
import { rootSession, type ApiSession } from "../tests/helpers/api-session.ts";
import { seedConsole } from "../tests/helpers/console-routes.ts";
import { startTestServer } from "../tests/helpers/test-server.ts";
import { kb } from "./page-weights.ts";
import { writePerformanceSection } from "./performance-doc.ts";

const pages = ["/channel", "/log", "/token", "/playground", "/api-reference"];
const encodings = ["identity", "gzip", "br"] as const;
type Encoding = (typeof encodings)[number];
const repeats = Number(process.env.TRANSFER_REPEATS ?? 40);

/** Bytes as they crossed the wire, and the encoding the server chose. */
async function wireBytes(url: string, session: ApiSession, encoding: Encoding): Promise<{ bytes: Uint8Array; sent: string }> {
  const response = await fetch(url, { headers: { cookie: session.cookie, "accept-encoding": encoding }, decompress: false });
  return { bytes: new Uint8Array(await response.arrayBuffer()), sent: response.headers.get("content-encoding") ?? "identity" };
}

async function plainText(url: string, session: ApiSession): Promise<string> {
  return new TextDecoder().decode((await wireBytes(url, session, "identity")).bytes);
}

/** Every script a page loads: its module imports followed, each file once. */
async function assetsOf(base: string, html: string, session: ApiSession): Promise<string[]> {
  const found = new Set<string>();
  const stylesheets = [...html.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
  const pending = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]!);
  for (const sheet of stylesheets) found.add(sheet);
  while (pending.length) {
    const path = pending.pop()!;
    if (found.has(path)) continue;
    found.add(path);
    const text = await (await fetch(base + path, { headers: { cookie: session.cookie } })).text();
    for (const match of text.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)) pending.push(`/assets/${match[1]}`);
  }
  return [...found];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function cost(compress: () => Uint8Array): { ms: number; bytes: number } {
  let bytes = compress().byteLength;
  const times: number[] = [];
  for (let round = 0; round < repeats; round++) {
    const started = performance.now();
    bytes = compress().byteLength;
    times.push(performance.now() - started);
  }
  return { ms: median(times), bytes };
}

async function seedChannels(session: ApiSession, baseUrl: string): Promise<void> {
  const models = Array.from({ length: 40 }, (_, index) => `vendor-research-preview-model-${index}-long-context-2026-11-01`).join(",");
  for (let index = 0; index < 12; index++) {
    await session.post("/api/channel/", { name: `channel-${index}`, type: 1, key: `sk-bench-${index}`, base_url: baseUrl, models });
  }
}

export async function runTransferBench(): Promise<string> {
  await buildAssets();
  const server = await startTestServer();
  const upstream = await seedConsole(server.url);
  try {
    const root = await rootSession(server.url);
    await seedChannels(root, upstream.url);
    const coldRows: string[] = [];
    const costRows: string[] = [];
    for (const page of pages) {
      const html = await plainText(server.url + page, root);
      const assets = await assetsOf(server.url, html, root);
      const totals: Record<Encoding, number> = { identity: 0, gzip: 0, br: 0 };
      const pageSizes: Record<Encoding, number> = { identity: 0, gzip: 0, br: 0 };
      for (const encoding of encodings) {
        const sent = await wireBytes(server.url + page, root, encoding);
        if (sent.sent !== encoding) throw new Error(`${page}: asked for ${encoding}, got ${sent.sent}`);
        pageSizes[encoding] = sent.bytes.byteLength;
        totals[encoding] += sent.bytes.byteLength;
        for (const asset of assets) totals[encoding] += (await wireBytes(server.url + asset, root, encoding)).bytes.byteLength;
      }
      coldRows.push(
        `| \`${page}\` | ${assets.length + 1} | ${kb(pageSizes.identity)} / ${kb(pageSizes.gzip)} / ${kb(pageSizes.br)} | ${kb(totals.identity)} | ${kb(totals.gzip)} | ${kb(totals.br)} |`,
      );
      const bytes = new TextEncoder().encode(html);
      const measured = [
        cost(() => compressPage(bytes, "gzip")),
        cost(() => compressPage(bytes, "br")),
        cost(() => Bun.gzipSync(bytes, { level: 9 })),
        cost(() => zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } })),
      ];
      costRows.push(
        `| \`${page}\` | ${kb(bytes.byteLength)} | ${measured.map((m) => `${m.ms.toFixed(2)} ms, ${kb(m.bytes)}`).join(" | ")} |`,
      );
    }
    return [
      "## Compressed answers",
      "",
      "`bench/transfer-sizes.ts` (`npm run bench -- transfer`): a cold visit as root (the page and every",
      "stylesheet and script it loads, split chunks included), bytes on the wire as the browser asks",
      "for no compression, gzip or brotli; 13 channels with 40 long model names each. Pages are",
      "compressed as they are sent (brotli 5, gzip 6, nothing under 1 KB); assets were compressed",
      "once at build time (brotli 11, gzip 9) and are only chosen per request. Relay answers (`/v1`)",
      "are never compressed.",
      "",
      "| page | files | page: none / gzip / br | cold, none | cold, gzip | cold, br |",
      "|---|---|---|---|---|---|",
      ...coldRows,
      "",
      `What compressing a page's HTML costs (median of ${repeats}, CPU time of one compression in`,
      "this process, and the size it gives): the levels the server uses beside the strongest.",
      "",
      "| page | HTML | gzip 6 | brotli 5 | gzip 9 | brotli 11 |",
      "|---|---|---|---|---|---|",
      ...costRows,
    ].join("\n");
  } finally {
    await server.stop();
    await upstream.stop();
  }
}

export async function benchTransferSizes(): Promise<string> {
  const section = await runTransferBench();
  writePerformanceSection("transfer", section);
  return section;
}

if (import.meta.main) console.log(await benchTransferSizes());
