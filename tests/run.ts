// `npm test`: the whole suite, in order, with one closing line "N passed, N failed".
//   1. type-check (tsc, strict) and the XSS scan of server TSX (@kitajs/ts-html-plugin)
//   2. build the console assets (pages and browser tests use them)
//   3. unit tests (pure code)                          bun test tests/unit src islands
//   4. API and relay suites on SQLite                  bun test tests/api tests/relay
//   5. the same suites on PostgreSQL                   when TEST_PG_URL is set (CI sets it)
//   6. browser suites (Playwright + Debian Chromium)   bun test tests/console
//   7. the single executable                           bun test tests/build
// Extra arguments narrow the run to matching steps: `npm test -- api console`.
import { existsSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const bun = process.execPath;
// Suites start servers and browsers; on a loaded 2-core machine a test may need more than
// bun's default 5 s (bunfig.toml's [test] timeout is not read by every bun version).
const bunTest = [bun, "test", "--timeout", "60000"];

type Step = { name: string; command: string[]; env?: Record<string, string>; isTest: boolean; when?: () => boolean | string };

const folders = (...names: string[]) => names.filter((name) => existsSync(join(root, name)));

const steps: Step[] = [
  { name: "typecheck", command: [join(root, "node_modules", ".bin", "tsc"), "-p", "."], isTest: false },
  // kitajs's scanner: every JSX expression that could carry HTML must be escaped or marked safe.
  // (React islands are left to React, which escapes by itself: see tests/xss-scan.ts.)
  { name: "xss-scan", command: [bun, "tests/xss-scan.ts"], isTest: false },
  { name: "assets", command: [bun, "src/build/build-assets.ts"], isTest: false },
  { name: "unit", command: [...bunTest, ...folders("tests/unit", "src", "islands")], isTest: true },
  { name: "api", command: [...bunTest, ...folders("tests/api", "tests/relay", "tests/store")], isTest: true },
  {
    name: "api-pg",
    command: [...bunTest, ...folders("tests/api", "tests/relay", "tests/store")],
    env: { TEST_STORE: "pg" },
    isTest: true,
    when: () => (process.env.TEST_PG_URL ? true : "TEST_PG_URL is not set: the PostgreSQL run is skipped (CI sets it)"),
  },
  { name: "console", command: [...bunTest, ...folders("tests/console")], isTest: true },
  { name: "build", command: [...bunTest, ...folders("tests/build")], isTest: true },
];

const filters = process.argv.slice(2);
let passed = 0;
let failed = 0;
let brokenSteps: string[] = [];

for (const step of steps) {
  if (filters.length && !filters.some((filter) => step.name.startsWith(filter))) continue;
  const verdict = step.when?.() ?? true;
  if (verdict !== true) {
    console.log(`\n== ${step.name}: skipped: ${verdict}`);
    continue;
  }
  console.log(`\n== ${step.name}: ${step.command.map((part) => part.replace(root + "/", "")).join(" ")}`);
  const child = Bun.spawn({
    cmd: step.command,
    cwd: root,
    env: { ...process.env, ...step.env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const forward = async (stream: ReadableStream<Uint8Array>, target: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      const text = decoder.decode(chunk);
      output += text;
      target.write(text);
    }
  };
  await Promise.all([forward(child.stdout, process.stdout), forward(child.stderr, process.stderr), child.exited]);
  if (step.isTest) {
    const pass = /^\s*(\d+) pass$/m.exec(output);
    const fail = /^\s*(\d+) fail$/m.exec(output);
    passed += Number(pass?.[1] ?? 0);
    failed += Number(fail?.[1] ?? 0);
    if (child.exitCode !== 0 && !fail) {
      failed += 1; // the runner itself failed (a crash, a file that did not load)
    }
  } else if (child.exitCode !== 0) {
    failed += 1;
  }
  if (child.exitCode !== 0) brokenSteps.push(step.name);
}

if (brokenSteps.length) console.log(`\nfailing steps: ${brokenSteps.join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && brokenSteps.length === 0 ? 0 : 1);
