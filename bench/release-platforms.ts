// Start-up and idle memory of each Linux release file (`npm run release`), started the way a
// self-hoster starts it: alone in an empty folder, nothing but PATH, PORT and HOST. The arm64 file
// runs under qemu-user on this x64 machine, so its times are the emulator's, not an arm64 CPU's,
// and its memory is the qemu process's (the emulator's own code and translation cache included).
// Not part of `npm run bench`: run `bun bench/release-platforms.ts`; it rewrites its section of
// docs/PERFORMANCE.md.
import { chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildRelease } from "../src/build/build-release.ts";
import { arm64Sysroot, ensureQemu, qemuAarch64 } from "../tests/helpers/release-files.ts";
import { writePerformanceSection } from "./performance-doc.ts";

const starts = Number(process.env.RELEASE_BENCH_STARTS ?? 5);
const idleSeconds = Number(process.env.RELEASE_BENCH_IDLE_SECONDS ?? 60);

type Build = { file: string; emulated: boolean };
const builds: Build[] = [
  { file: "switchyard-linux-x64", emulated: false },
  { file: "switchyard-linux-x64-baseline", emulated: false },
  { file: "switchyard-linux-arm64", emulated: true },
];

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

type Run = { firstAnswerMs: number; rssMb: number; idleRssMb?: number };

/** One start in `folder`: time to the first answered /api/status, RSS 3 s later, optionally idle RSS. */
async function startOnce(build: Build, folder: string, idle: boolean): Promise<Run> {
  const executable = join(folder, build.file);
  const env: Record<string, string> = { PATH: "/usr/bin:/bin", PORT: "0", HOST: "127.0.0.1" };
  // Under qemu-user the process cannot re-execute itself (no binfmt_misc): give it what it would add.
  if (build.emulated) Object.assign(env, { BUN_CONFIG_MAX_HTTP_REQUESTS: "65535", BUN_JSC_forceRAMSize: String(512 * 1024 * 1024) });
  const cmd = build.emulated ? [qemuAarch64, "-L", arm64Sysroot, executable] : [executable];
  const started = performance.now();
  const child = Bun.spawn({ cmd, cwd: folder, env, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const decoder = new TextDecoder();
  for (const stream of [child.stdout, child.stderr]) {
    void (async () => {
      for await (const chunk of stream) output += decoder.decode(chunk);
    })();
  }
  try {
    let port = 0;
    while (!port) {
      if (child.exitCode !== null || performance.now() - started > 300_000) throw new Error(`${build.file} did not start:\n${output}`);
      port = Number(/listening \{"address":"http:\/\/[^:]+:(\d+)"/.exec(output)?.[1] ?? 0);
      if (!port) await Bun.sleep(5);
    }
    while (true) {
      const answered = await fetch(`http://127.0.0.1:${port}/api/status`).then(
        (response) => response.ok,
        () => false,
      );
      if (answered) break;
      await Bun.sleep(5);
    }
    const firstAnswerMs = performance.now() - started;
    await Bun.sleep(3000);
    const run: Run = { firstAnswerMs, rssMb: rssMb(child.pid) };
    if (idle) {
      await Bun.sleep(idleSeconds * 1000 - 3000);
      run.idleRssMb = rssMb(child.pid);
    }
    return run;
  } finally {
    child.kill("SIGTERM");
    await child.exited;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(build: Build, release: string) {
  const folder = mkdtempSync(join(tmpdir(), "switchyard-release-bench-"));
  try {
    copyFileSync(join(release, build.file), join(folder, build.file));
    chmodSync(join(folder, build.file), 0o755);
    const first: Run[] = [];
    for (let index = 0; index < starts; index++) {
      rmSync(join(folder, "data"), { recursive: true, force: true });
      first.push(await startOnce(build, folder, false));
    }
    // A restart on the store the last start left, then left idle.
    const restart = await startOnce(build, folder, true);
    return {
      build,
      firstMs: median(first.map((run) => run.firstAnswerMs)),
      firstRss: median(first.map((run) => run.rssMb)),
      restartMs: restart.firstAnswerMs,
      restartRss: restart.rssMb,
      idleRss: restart.idleRssMb!,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

ensureQemu();
const release = await buildRelease({ reuse: true, log: (line) => console.log(line) });
const before = loadavg()
  .map((value) => value.toFixed(2))
  .join(" ");
const results = [];
for (const build of builds) {
  const result = await measure(build, release.folder);
  console.log(result);
  results.push(result);
}
const after = loadavg()
  .map((value) => value.toFixed(2))
  .join(" ");
const row = (result: Awaited<ReturnType<typeof measure>>) =>
  `| \`${result.build.file}\`${result.build.emulated ? " (**emulated**: qemu-user on x64)" : ""} | ${Math.round(result.firstMs)} ms | ${result.firstRss.toFixed(0)} MB | ${Math.round(result.restartMs)} ms | ${result.restartRss.toFixed(0)} MB | ${result.idleRss.toFixed(0)} MB |`;
const markdown = `## Release files: start-up and idle memory (issue 30)

\`bun bench/release-platforms.ts\`, ${new Date().toISOString().replace(/\.\d+Z$/, "Z")}, Bun ${Bun.version}: each Linux file of
\`npm run release\` copied alone into an empty folder and started with only \`PATH\`, \`PORT\` and
\`HOST\`, ${starts} times on a new store (median shown), then once more on the store left by the last
start (a restart), which is then left idle. Start-up is the wall time from exec to the first
answered \`/api/status\`; memory is the resident set 3 s after that answer, and after ${idleSeconds} s idle.
Load average ${before} before, ${after} after (a shared 2-core machine).

The arm64 file runs **under emulation** (Debian's qemu-user, \`-L\` at \`libc6-arm64-cross\`): its
times are qemu's translation of every instruction, several times slower than an arm64 CPU, and
its memory is the qemu process's, emulator and translated code included. They show the file
starts and settles, not how fast an arm64 host is. It is given the two runtime variables the
x64 files set for themselves by re-executing (qemu-user cannot re-execute an arm64 file).

| file | first start | RSS | restart | RSS | idle RSS |
|---|---|---|---|---|---|
${results.map(row).join("\n")}
`;
writePerformanceSection("release-platforms", markdown);
console.log(markdown);
