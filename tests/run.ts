// `npm test`: the whole suite, in order, with one closing line "N passed, N failed".
//   1. type-check (tsc, strict) and the XSS scan of server TSX (@kitajs/ts-html-plugin)
//   2. build the console assets (pages and browser tests use them)
//   3. unit tests (pure code)                          bun test tests/unit src islands
//   4. API and relay suites on SQLite                  bun test tests/api tests/relay
//   5. the same suites on PostgreSQL                   when TEST_PG_URL is set (CI sets it)
//   5b. the fast cases of the fault and attack suite   bun test <fastFaultCases> (all of it, with the
//      10-minute soak and thousands of fuzzed inputs: `npm run test:faults`, docs/RELIABILITY.md)
//   6. browser suites (Playwright + Debian Chromium)   bun test tests/console
//   7. the single executable, built once, copied alone into an empty folder, and tested as shipped:
//      its own checks (tests/build), then the relay, session, token and channel suites
//      (TEST_TARGET=executable), then the console tour and the channel drawer in Chromium.
//      Any build option that breaks a route fails here, not in a self-hoster's hands.
// Extra arguments narrow the run to matching steps: `npm test -- api console`.
import { existsSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildExecutableAlone } from "./helpers/test-target.ts";

const root = join(import.meta.dir, "..");
const bun = process.execPath;
// Suites start servers and browsers; on a loaded 2-core machine a test may need more than
// bun's default 5 s (bunfig.toml's [test] timeout is not read by every bun version).
const bunTest = [bun, "test", "--timeout", "60000"];

type Step = {
  name: string;
  command: string[];
  env?: Record<string, string>;
  /** Work done in this process before the command, giving it more environment. */
  prepare?: () => Promise<Record<string, string>>;
  isTest: boolean;
  when?: () => boolean | string;
};

const folders = (...names: string[]) => names.filter((name) => existsSync(join(root, name)));

/** The suites that also run against the executable (TEST_TARGET=executable). */
const executableSuites = [
  "tests/relay/endpoints.test.ts",
  "tests/relay/billing.test.ts",
  "tests/relay/refusals.test.ts",
  "tests/relay/routing.test.ts",
  "tests/relay/playground.test.ts",
  "tests/relay/concurrency.test.ts",
  "tests/relay/shutdown.test.ts",
  "tests/store/upgrade-backup.test.ts",
  "tests/api/session.test.ts",
  "tests/api/tokens.test.ts",
  "tests/api/channels.test.ts",
];
/** The fault suite's cases that take seconds (fuzzing at a few hundred inputs, no soak). */
const fastFaultCases = [
  "tests/faults/fuzz-relay.test.ts",
  "tests/faults/fuzz-api.test.ts",
  "tests/faults/leaving-clients.test.ts",
  "tests/faults/bad-upstreams.test.ts",
  "tests/faults/kill-nine.test.ts",
];
const executableBrowserSuites = ["tests/console/pages-tour.test.ts", "tests/console/channels.test.ts"];

/** Built once per run and shared by the executable steps; its folder is removed at the end. */
let executable: Promise<string> | undefined;
let executableFolder: string | undefined;
async function executableEnvironment(): Promise<Record<string, string>> {
  executable ??= buildExecutableAlone().then((path) => ((executableFolder = dirname(path)), path));
  return { TEST_EXECUTABLE: await executable };
}

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
  { name: "faults", command: [...bunTest, ...fastFaultCases], env: { FAULTS_FUZZ_RUNS: "300" }, isTest: true },
  { name: "console", command: [...bunTest, ...folders("tests/console")], isTest: true },
  {
    name: "executable",
    command: [...bunTest, ...folders("tests/build"), ...executableSuites],
    env: { TEST_TARGET: "executable" },
    prepare: executableEnvironment,
    isTest: true,
  },
  {
    name: "executable-console",
    command: [...bunTest, ...executableBrowserSuites],
    env: { TEST_TARGET: "executable" },
    prepare: executableEnvironment,
    isTest: true,
  },
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
  let prepared: Record<string, string> = {};
  try {
    prepared = (await step.prepare?.()) ?? {};
  } catch (error) {
    console.log(`${step.name}: could not prepare: ${error instanceof Error ? error.message : String(error)}`);
    failed += 1;
    brokenSteps.push(step.name);
    continue;
  }
  const child = Bun.spawn({
    cmd: step.command,
    cwd: root,
    env: { ...process.env, ...step.env, ...prepared },
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

if (executableFolder) rmSync(executableFolder, { recursive: true, force: true });
if (brokenSteps.length) console.log(`\nfailing steps: ${brokenSteps.join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && brokenSteps.length === 0 ? 0 : 1);
