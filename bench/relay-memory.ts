// Memory of our gateway through load and after it: resident memory at idle, its peak through
// a closed-loop run at 128 connections (streamed, the heavier kind), and again a minute after the
// load stopped (aim: back within 20% of idle). Uses the harness's mock upstream and wrk, pinned
// like the harness pins them (servers on CPU 0, load on CPU 1).
import { join } from "node:path";

export type MemoryTrace = { idleMb: number; peakMb: number; afterMb: number; waitSeconds: number; requests: number };

const harness = join(import.meta.dir, "harness");
const harnessBun = join(harness, "node_modules", ".bin", "bun");

const statusLine = (pid: number, name: string) => {
  const text = require("node:fs").readFileSync(`/proc/${pid}/status`, "utf8") as string;
  return Number(new RegExp(`^${name}:\\s+(\\d+)`, "m").exec(text)?.[1] ?? 0) / 1024;
};

async function waitFor(url: string): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    try {
      await fetch(url);
      return;
    } catch {
      await Bun.sleep(100);
    }
  }
  throw new Error(`${url} did not come up`);
}

export async function traceMemory(options: {
  gatewayCommand: string[];
  gatewayEnv: Record<string, string>;
  gatewayUrl: string;
  key: string;
  mockPort: number;
  loadSeconds: number;
  waitSeconds: number;
}): Promise<MemoryTrace> {
  const mock = Bun.spawn({
    cmd: ["taskset", "-c", "0", harnessBun, "run", join(harness, "mock-upstream.ts")],
    env: { ...process.env, MOCK_PORT: String(options.mockPort), MOCK_STREAM_CHUNKS: "20" },
    stdout: "ignore",
    stderr: "ignore",
  });
  const gateway = Bun.spawn({
    cmd: ["taskset", "-c", "0", ...options.gatewayCommand],
    env: { ...process.env, ...options.gatewayEnv },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    await waitFor(`http://127.0.0.1:${options.mockPort}/health`);
    await waitFor(`${options.gatewayUrl}/api/status`);
    await Bun.sleep(3000);
    const idleMb = statusLine(gateway.pid, "VmRSS");
    const body = join(require("node:os").tmpdir(), `switchyard-memory-body-${process.pid}.json`);
    await Bun.write(
      body,
      JSON.stringify({
        model: "gpt-4o-mini",
        messages: [
          { role: "system", content: "You are a helpful assistant." },
          { role: "user", content: "Say hello in one short sentence." },
        ],
        max_tokens: 64,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const wrk = Bun.spawn({
      cmd: [
        "taskset",
        "-c",
        "1",
        "wrk",
        "-t1",
        "-c128",
        `-d${options.loadSeconds}s`,
        "--timeout",
        "10s",
        "-s",
        join(harness, "wrk-post.lua"),
        `${options.gatewayUrl}/v1/chat/completions`,
      ],
      env: { ...process.env, WRK_BODY_FILE: body, WRK_HEADERS: `Authorization: Bearer ${options.key}\n` },
      stdout: "pipe",
      stderr: "inherit",
    });
    const output = await new Response(wrk.stdout).text();
    await wrk.exited;
    const peakMb = statusLine(gateway.pid, "VmHWM");
    await Bun.sleep(options.waitSeconds * 1000);
    const afterMb = statusLine(gateway.pid, "VmRSS");
    const result = /^WRK_JSON (.*)$/m.exec(output);
    const requests = result ? Number(JSON.parse(result[1]!).requests) : 0;
    return { idleMb, peakMb, afterMb, waitSeconds: options.waitSeconds, requests };
  } finally {
    gateway.kill("SIGTERM");
    mock.kill("SIGKILL");
    await Promise.all([gateway.exited, mock.exited]);
  }
}
