// `npm test`: the whole suite, with one closing line "N passed, N failed". The checks run first,
// side by side; then the suites, TEST_JOBS (2) at a time, each one's output printed whole when it
// ends (and kept in tests/artifacts/steps/<step>.log).
//   1. type-check (tsc, strict), lint and formatting (biome check: biome.json), and the XSS scan
//      of server TSX (@kitajs/ts-html-plugin)
//   2. build the console assets (pages and browser tests use them)
//   3. unit tests (pure code)                          bun test tests/unit src console-runtime islands
//   4. API and relay suites on SQLite                  bun test tests/api tests/relay
//   5. the same suites on PostgreSQL                   when TEST_PG_URL is set (CI sets it)
//   5a. today's coding agents from npm (Codex, Claude Code, Gemini CLI; installed on first use
//      into the system temp dir) through the gateway          bun test tests/agents
//   5b. the fast cases of the fault and attack suite   bun test <fastFaultCases> (all of it, with the
//      10-minute soak and thousands of fuzzed inputs: `npm run test:faults`, docs/RELIABILITY.md)
//   6. browser suites (Playwright + Debian Chromium)   bun test tests/console
//   7. the single executable, built once, copied alone into an empty folder, and tested as shipped:
//      its own checks (tests/build), then the relay, session, token and channel suites
//      (TEST_TARGET=executable), then the console tour and the channel drawer in Chromium.
//      Any build option that breaks a route fails here, not in a self-hoster's hands.
//   8. the release (npm run release: six platforms, reused while the source is unchanged): each
//      file's format, SHA256SUMS, --version, and the arm64 file started from an empty folder under
//      qemu-user (installed with apt-get when missing)           bun test tests/release
// Extra arguments narrow the run to matching steps: `npm test -- api console`.
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { buildRelease } from "../src/build/build-release.ts";
import { buildExecutableAlone } from "./helpers/test-target.ts";

const root = join(import.meta.dir, "..");
const bun = process.execPath;
// Suites start servers and browsers; on a loaded 2-core machine a test may need more than
// bun's default 5 s (bunfig.toml's [test] timeout is not read by every bun version).
const bunTest = [bun, "test", "--timeout", "60000"];
/** Browser suites: a test outlasts its browser waits (tests/helpers/browser.ts), so a stuck wait fails as that wait. */
const browserTest = [bun, "test", "--timeout", "120000"];

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
  "tests/api/single-instance.test.ts",
  "tests/api/setup-code.test.ts",
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
  // Libraries loaded on first use (openid-client, bowser, otpauth) must be in the executable.
  "tests/api/oidc-login.test.ts",
  "tests/api/account-sessions.test.ts",
  "tests/api/two-factor.test.ts",
];
/** The fault suite's cases that take seconds (fuzzing at a few hundred inputs, no soak). */
const fastFaultCases = [
  "tests/faults/fuzz-relay.test.ts",
  "tests/faults/fuzz-api.test.ts",
  "tests/faults/leaving-clients.test.ts",
  "tests/faults/bad-upstreams.test.ts",
  "tests/faults/kill-nine.test.ts",
  "tests/faults/two-factor-bypass.test.ts",
  "tests/faults/overdraft.test.ts",
  "tests/faults/stuck-task.test.ts",
  "tests/faults/task-poll-flood.test.ts",
  "tests/faults/hostile-import.test.ts",
  "tests/faults/private-files.test.ts",
  "tests/faults/hostile-bodies.test.ts",
  "tests/faults/slow-readers.test.ts",
];
const executableBrowserSuites = ["tests/console/pages-tour.test.ts", "tests/console/channels.test.ts", "tests/console/passkeys.test.ts"];

/** Built once per run and shared by the executable steps; its folder is removed at the end. */
let executable: Promise<string> | undefined;
let executableFolder: string | undefined;
async function executableEnvironment(): Promise<Record<string, string>> {
  executable ??= buildExecutableAlone().then((path) => ((executableFolder = dirname(path)), path));
  return { TEST_EXECUTABLE: await executable };
}

/** The release files, built (or reused when the source is unchanged) before the release step. */
async function releaseEnvironment(): Promise<Record<string, string>> {
  const release = await buildRelease({ reuse: true, log: (line) => console.log(line) });
  console.log(`release: ${release.reused ? "reused" : "built"} in ${release.seconds.toFixed(1)} s`);
  return { TEST_RELEASE_DIR: release.folder };
}

const steps: Step[] = [
  { name: "typecheck", command: [join(root, "node_modules", ".bin", "tsc"), "-p", "."], isTest: false },
  // Biome's formatter and linter over the tree; a warning fails it too (a clean tree stays clean).
  { name: "lint", command: [join(root, "node_modules", ".bin", "biome"), "check", "--error-on-warnings", "."], isTest: false },
  // kitajs's scanner: every JSX expression that could carry HTML must be escaped or marked safe.
  // (React islands are left to React, which escapes by itself: see tests/xss-scan.ts.)
  { name: "xss-scan", command: [bun, "tests/xss-scan.ts"], isTest: false },
  { name: "assets", command: [bun, "src/build/build-assets.ts"], isTest: false },
  { name: "unit", command: [...bunTest, ...folders("tests/unit", "src", "console-runtime", "islands")], isTest: true },
  { name: "api", command: [...bunTest, ...folders("tests/api", "tests/relay", "tests/store")], isTest: true },
  {
    name: "api-pg",
    command: [...bunTest, ...folders("tests/api", "tests/relay", "tests/store")],
    env: { TEST_STORE: "pg" },
    isTest: true,
    when: () => (process.env.TEST_PG_URL ? true : "TEST_PG_URL is not set: the PostgreSQL run is skipped (CI sets it)"),
  },
  // The agent CLIs are installed from npm on first use (tests/helpers/agent-clis.ts), then reused.
  { name: "agents", command: [bun, "test", "--timeout", "600000", ...folders("tests/agents")], isTest: true },
  { name: "faults", command: [...bunTest, ...fastFaultCases], env: { FAULTS_FUZZ_RUNS: "300" }, isTest: true },
  { name: "console", command: [...browserTest, ...folders("tests/console")], isTest: true },
  {
    name: "executable",
    command: [...bunTest, ...folders("tests/build"), ...executableSuites],
    env: { TEST_TARGET: "executable" },
    prepare: executableEnvironment,
    isTest: true,
  },
  {
    name: "executable-console",
    command: [...browserTest, ...executableBrowserSuites],
    env: { TEST_TARGET: "executable" },
    prepare: executableEnvironment,
    isTest: true,
  },
  // Emulated arm64 is several times slower than native: its cases carry their own long timeouts.
  { name: "release", command: [...bunTest, ...folders("tests/release")], prepare: releaseEnvironment, isTest: true },
];

const filters = process.argv.slice(2);
/** Test steps run side by side, this many at a time (TEST_JOBS); the checks before them all at once. */
const jobs = Math.max(1, Number(process.env.TEST_JOBS ?? 2) || 2);
const logFolder = join(root, "tests", "artifacts", "steps");
mkdirSync(logFolder, { recursive: true });

type Outcome = { name: string; passed: number; failed: number; broken: boolean; seconds: number; failures: string[] };

/** Each failed case's line with the error printed above it: CI keeps only the end of the output, so they are repeated there. */
function failureExcerpts(output: string): string[] {
  const lines = output.split("\n");
  const excerpts: string[] = [];
  let from = 0;
  lines.forEach((line, index) => {
    if (/^\s*\(pass\)|^\s*\(skip\)|^\S+\.test\.tsx?:$/.test(line)) from = index + 1;
    if (!/^\s*\(fail\)/.test(line)) return;
    excerpts.push(lines.slice(Math.max(from, index - 20), index + 1).join("\n"));
    from = index + 1;
  });
  return excerpts;
}

/** Runs one step with its output kept in a file and printed whole when it ends, so steps run side by side stay readable. */
async function runStep(step: Step): Promise<Outcome> {
  const started = performance.now();
  const outcome = (passed: number, failed: number, broken: boolean, failures: string[] = []): Outcome => ({
    name: step.name,
    passed,
    failed,
    broken,
    seconds: (performance.now() - started) / 1000,
    failures,
  });
  const verdict = step.when?.() ?? true;
  if (verdict !== true) {
    console.log(`\n== ${step.name}: skipped: ${verdict}`);
    return outcome(0, 0, false);
  }
  const commandLine = step.command.map((part) => part.replace(root + "/", "")).join(" ");
  console.log(`-- ${step.name}: started`);
  let prepared: Record<string, string> = {};
  try {
    prepared = (await step.prepare?.()) ?? {};
  } catch (error) {
    console.log(`\n== ${step.name}: could not prepare: ${error instanceof Error ? error.message : String(error)}`);
    return outcome(0, 1, true);
  }
  const child = Bun.spawn({
    cmd: step.command,
    cwd: root,
    env: { ...process.env, ...step.env, ...prepared },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const collect = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) output += decoder.decode(chunk, { stream: true });
  };
  await Promise.all([collect(child.stdout), collect(child.stderr), child.exited]);
  writeFileSync(join(logFolder, `${step.name}.log`), output);
  const result = (() => {
    if (!step.isTest) return outcome(0, child.exitCode === 0 ? 0 : 1, child.exitCode !== 0);
    const pass = /^\s*(\d+) pass$/m.exec(output);
    const fail = /^\s*(\d+) fail$/m.exec(output);
    // A runner that failed without a count (a crash, a file that did not load) is one failure.
    const failures = Number(fail?.[1] ?? 0) + (child.exitCode !== 0 && !fail ? 1 : 0);
    return outcome(Number(pass?.[1] ?? 0), failures, child.exitCode !== 0, failureExcerpts(output));
  })();
  process.stdout.write(`\n== ${step.name}: ${commandLine}\n${output}`);
  console.log(`== ${step.name}: ${result.broken ? "FAILED" : "done"} in ${result.seconds.toFixed(0)} s`);
  return result;
}

/** Runs the steps, at most `width` at a time, in the order given. */
async function runPool(chosen: Step[], width: number): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < chosen.length) outcomes.push(await runStep(chosen[next++]!));
  };
  await Promise.all(Array.from({ length: Math.min(width, chosen.length) }, lane));
  return outcomes;
}

const chosen = steps.filter((step) => !filters.length || filters.some((filter) => step.name.startsWith(filter)));
const began = performance.now();
// The checks (type-check, lint, XSS scan, assets) together first: the suites need the assets.
const outcomes = await runPool(
  chosen.filter((step) => !step.isTest),
  4,
);
// The longest suites start first, so the short ones fill the gaps at the end.
const order = ["api", "api-pg", "console", "executable", "faults", "release", "executable-console", "agents", "unit"];
const rank = (step: Step) => (order.includes(step.name) ? order.indexOf(step.name) : order.length);
outcomes.push(
  ...(await runPool(
    chosen.filter((step) => step.isTest).sort((a, b) => rank(a) - rank(b)),
    jobs,
  )),
);

if (executableFolder) rmSync(executableFolder, { recursive: true, force: true });
const passed = outcomes.reduce((sum, outcome) => sum + outcome.passed, 0);
const failed = outcomes.reduce((sum, outcome) => sum + outcome.failed, 0);
const brokenSteps = outcomes.filter((outcome) => outcome.broken).map((outcome) => outcome.name);
console.log(`\nsteps: ${outcomes.map((outcome) => `${outcome.name} ${outcome.seconds.toFixed(0)} s`).join(", ")}`);
console.log(`whole run: ${((performance.now() - began) / 60000).toFixed(1)} min (${jobs} suites at a time; TEST_JOBS changes it)`);
for (const outcome of outcomes.filter((each) => each.failures.length)) {
  console.log(`\n== failed in ${outcome.name}:\n${outcome.failures.join("\n--\n")}`);
}
if (brokenSteps.length) console.log(`\nfailing steps: ${brokenSteps.join(", ")}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && brokenSteps.length === 0 ? 0 : 1);
