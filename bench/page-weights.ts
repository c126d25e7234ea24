// Console page and island weights: for every route of the console (as root) the bytes of HTML,
// CSS and JavaScript it makes the browser load, raw and gzip, and for each script bundle (the
// runtime every page loads, htmx, each React island) its own size with the chunks it imports.
// Writes the "page-weights" section of docs/PERFORMANCE.md (`npm run bench -- weights`);
// bench/pages.ts uses the same measure for its /log timings' page.
import { buildAssets } from "../src/build/build-assets.ts";
import type { ApiSession } from "../tests/helpers/api-session.ts";
import { rootSession } from "../tests/helpers/api-session.ts";
import { rootRoutes, seedConsole } from "../tests/helpers/console-routes.ts";
import { startTestServer, type TestServer } from "../tests/helpers/test-server.ts";
import { writePerformanceSection } from "./performance-doc.ts";

export type Weight = {
  page: string;
  html: number;
  css: number;
  js: number;
  jsGzip: number;
  htmlGzip: number;
  cssGzip: number;
  react: boolean;
  scripts: number;
  /** Modules the page's scripts import dynamically once it is shown (not counted in js). */
  lazyJs: number;
  lazyJsGzip: number;
};

const gzip = (bytes: Uint8Array) => Bun.gzipSync(bytes as Uint8Array<ArrayBuffer>).byteLength;

async function fetchBytes(url: string, session: ApiSession): Promise<Uint8Array> {
  const response = await fetch(url, { headers: { cookie: session.cookie } });
  return new Uint8Array(await response.arrayBuffer());
}

/** A script and every module it imports (Bun's split chunks), each counted once per page. */
async function scriptClosure(base: string, entry: string, session: ApiSession, seen: Set<string>): Promise<Uint8Array[]> {
  if (seen.has(entry)) return [];
  seen.add(entry);
  const bytes = await fetchBytes(base + entry, session);
  const text = new TextDecoder().decode(bytes);
  const imports = [...text.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((match) => `/assets/${match[1]}`);
  const nested = await Promise.all(imports.map((path) => scriptClosure(base, path, session, seen)));
  return [bytes, ...nested.flat()];
}

export async function weigh(server: TestServer, session: ApiSession, path: string): Promise<Weight> {
  const html = await fetchBytes(server.url + path, session);
  const text = new TextDecoder().decode(html);
  const stylesheets = [...text.matchAll(/<link rel="stylesheet" href="([^"]+)"/g)].map((match) => match[1]!);
  const scripts = [...text.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1]!);
  const css = await Promise.all(stylesheets.map((href) => fetchBytes(server.url + href, session)));
  const seen = new Set<string>();
  const js = (await Promise.all(scripts.map((src) => scriptClosure(server.url, src, session, seen)))).flat();
  const initialScripts = seen.size;
  // import("./x.js") calls: chunks an island loads after the page is shown.
  const dynamic = [
    ...new Set(
      js.flatMap((part) =>
        [...new TextDecoder().decode(part).matchAll(/import\("\.\/([^"]+\.js)"\)/g)].map((match) => `/assets/${match[1]}`),
      ),
    ),
  ];
  const lazy = (await Promise.all(dynamic.map((path) => scriptClosure(server.url, path, session, seen)))).flat();
  const sum = (parts: Uint8Array[], measure: (part: Uint8Array) => number) => parts.reduce((total, part) => total + measure(part), 0);
  return {
    page: path,
    html: html.byteLength,
    htmlGzip: gzip(html),
    css: sum(css, (part) => part.byteLength),
    cssGzip: sum(css, gzip),
    js: sum(js, (part) => part.byteLength),
    jsGzip: sum(js, gzip),
    react: js.some((part) => new TextDecoder().decode(part).includes("Minified React error")),
    scripts: initialScripts,
    lazyJs: sum(lazy, (part) => part.byteLength),
    lazyJsGzip: sum(lazy, gzip),
  };
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

/** The files of one bundle (its entry and the chunks it imports), by URL. */
async function bundleFiles(server: TestServer, session: ApiSession, entry: string): Promise<Map<string, Uint8Array>> {
  const seen = new Set<string>();
  await scriptClosure(server.url, entry, session, seen);
  const files = new Map<string, Uint8Array>();
  for (const url of seen) files.set(url, await fetchBytes(server.url + url, session));
  return files;
}

export async function benchPageWeights(): Promise<string> {
  const manifest = await buildAssets();
  const server = await startTestServer();
  const upstream = await seedConsole(server.url);
  try {
    const root = await rootSession(server.url);
    const weights: Weight[] = [];
    for (const path of rootRoutes) weights.push(await weigh(server, root, path));
    const bundles: [string, string][] = [
      ["console runtime (every page)", manifest.scripts.console],
      ["htmx (pages with tables)", manifest.scripts.htmx],
      ...Object.entries(manifest.islands).map(([name, url]): [string, string] => [`island: ${name}`, url]),
    ];
    const files = await Promise.all(bundles.map(([, url]) => bundleFiles(server, root, url)));
    // A chunk two bundles import (React, the shared client code) is counted apart from each one's own.
    const users = new Map<string, number>();
    for (const bundle of files) for (const url of bundle.keys()) users.set(url, (users.get(url) ?? 0) + 1);
    const total = (parts: Uint8Array[], measure: (part: Uint8Array) => number) => parts.reduce((sum, part) => sum + measure(part), 0);
    const bundleRows = bundles.map(([label], index) => {
      const all = [...files[index]!.values()];
      const own = [...files[index]!.entries()].filter(([url]) => users.get(url) === 1).map(([, bytes]) => bytes);
      return `| ${label} | ${kb(total(all, (part) => part.byteLength))} (${kb(total(all, gzip))}) | ${kb(total(own, (part) => part.byteLength))} (${kb(total(own, gzip))}) | ${all.length} |`;
    });
    const pageRows = weights.map(
      (weight) =>
        `| \`${weight.page}\` | ${kb(weight.html)} (${kb(weight.htmlGzip)}) | ${kb(weight.css)} (${kb(weight.cssGzip)}) | ${kb(weight.js)} (${kb(weight.jsGzip)}) | ${weight.lazyJs ? `${kb(weight.lazyJs)} (${kb(weight.lazyJsGzip)})` : "-"} | ${weight.scripts} | ${weight.react ? "React (island)" : "none"} |`,
    );
    const markdown = `## Page and island weights

\`bench/page-weights.ts\` (\`npm run bench -- weights\`): every console route fetched as root over
loopback, on a store with two channels, a token, a code and one relayed request. Sizes are
uncompressed, gzip in brackets (the server now compresses pages and assets itself: "Compressed answers"). JavaScript counts every module the page
loads, split chunks included; "after load" is what an island imports once it is shown (the
playground's answer renderer). Every page shares one stylesheet and the console runtime.

| page | HTML | CSS | JavaScript | after load | scripts | framework |
|---|---|---|---|---|---|---|
${pageRows.join("\n")}

Each script bundle: with every chunk it imports, and its own part (chunks no other bundle
imports). An island's total includes React's shared chunk, which a page loads once however many
islands it has. Gzip in brackets.

| bundle | with its chunks | own | files |
|---|---|---|---|
${bundleRows.join("\n")}`;
    writePerformanceSection("page-weights", markdown);
    return markdown;
  } finally {
    await server.stop();
    await upstream.stop();
  }
}

if (import.meta.main) console.log(await benchPageWeights());
