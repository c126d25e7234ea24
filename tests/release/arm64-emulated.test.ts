// The linux-arm64 release file, run on this x64 machine under Debian's qemu-user with the arm64 C
// library of libc6-arm64-cross (installed when missing: tests/helpers/release-files.ts), from an
// empty folder as a self-hoster starts it: it creates its store, prints the setup code, answers
// the status, signs root in, relays a chat streamed and not to an OpenAI imitation through the
// official client, and stops cleanly on SIGTERM.
//
// Emulated, everything runs several times slower than on an arm64 machine, hence the long
// timeouts. The process sets two runtime variables for itself by re-executing itself
// (src/runtime-environment.ts); under qemu-user without binfmt_misc the kernel cannot execute an
// arm64 file, so the suite passes them in, as that re-execution would.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import OpenAI from "openai";
import { currentBuildStamp } from "../../src/build/build-stamp.ts";
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { ApiSession, rootPassword } from "../helpers/api-session.ts";
import { arm64Sysroot, ensureQemu, qemuAarch64, releaseFolder } from "../helpers/release-files.ts";

const emulatedTimeout = 300_000;

let folder: string;
let executable: string;
let upstream: Upstream;
let child: Bun.Subprocess<"ignore", "pipe", "pipe"> | undefined;
let output = "";
let baseUrl: string;

const emulated = (...args: string[]) => [qemuAarch64, "-L", arm64Sysroot, executable, ...args];

async function waitFor(condition: () => boolean, what: string, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what} did not happen within ${ms / 1000} s:\n${output}`);
    await Bun.sleep(50);
  }
}

beforeAll(async () => {
  ensureQemu();
  const release = await releaseFolder();
  folder = mkdtempSync(join(tmpdir(), "switchyard-arm64-"));
  executable = join(folder, "switchyard-linux-arm64");
  copyFileSync(join(release, "switchyard-linux-arm64"), executable);
  chmodSync(executable, 0o755);
  upstream = await startUpstream();
}, 600_000);

afterAll(async () => {
  child?.kill("SIGKILL");
  await upstream?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("switchyard-linux-arm64 under qemu-user", () => {
  test(
    "--version names its target",
    () => {
      const run = Bun.spawnSync({ cmd: emulated("--version"), cwd: folder, env: { PATH: "/usr/bin:/bin" } });
      expect(run.stdout.toString().trim()).toStartWith(`switchyard `);
      expect(run.stdout.toString()).toContain(`, commit ${currentBuildStamp().commit}, target linux-arm64, built `);
    },
    emulatedTimeout,
  );

  test(
    "starts in an empty folder: creates its store under ./data and prints the setup code",
    async () => {
      expect(readdirSync(folder)).toEqual(["switchyard-linux-arm64"]);
      child = Bun.spawn({
        cmd: emulated(),
        cwd: folder,
        env: {
          PATH: "/usr/bin:/bin",
          PORT: "0",
          HOST: "127.0.0.1",
          BUN_CONFIG_MAX_HTTP_REQUESTS: "65535",
          BUN_JSC_forceRAMSize: String(512 * 1024 * 1024),
        },
        stdout: "pipe",
        stderr: "pipe",
      });
      const decoder = new TextDecoder();
      for (const stream of [child.stdout, child.stderr]) {
        void (async () => {
          for await (const chunk of stream) output += decoder.decode(chunk);
        })();
      }
      await waitFor(() => /listening/.test(output) || child!.exitCode !== null, "listening", emulatedTimeout - 10_000);
      expect(child.exitCode).toBeNull();
      baseUrl = `http://127.0.0.1:${/listening \{"address":"http:\/\/[^:]+:(\d+)"/.exec(output)![1]}`;
      expect(existsSync(join(folder, "data", "switchyard.db"))).toBe(true);
      expect(output).toMatch(/setup code [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}/);
    },
    emulatedTimeout,
  );

  test(
    "answers the status, signs root in, and relays a chat, non-streamed and streamed",
    async () => {
      const status = await (await fetch(`${baseUrl}/api/status`)).json();
      expect(status).toMatchObject({ success: true, data: { version: "0.4.8.5.2" } });
      const root = new ApiSession(baseUrl);
      expect((await root.login("root", "123456")).body).toMatchObject({ success: true, data: { role: 100 } });
      const changed = await root.put("/api/user/self", { password: rootPassword, password2: rootPassword, original_password: "123456" });
      expect(changed.body.success).toBe(true);
      const channel = await root.post("/api/channel/", {
        name: "arm64",
        type: 1,
        key: "sk-arm64",
        base_url: upstream.url,
        models: "gpt-4o-mini",
        group: "default",
      });
      expect(channel.body.success).toBe(true);
      const token = await root.post("/api/token/", { name: "arm64", remain_quota: 0, unlimited_quota: true, expired_time: -1 });
      expect(token.body.success).toBe(true);
      const client = new OpenAI({ baseURL: `${baseUrl}/v1`, apiKey: `sk-${token.body.data[0].key}`, maxRetries: 0, timeout: 120_000 });
      const answer = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
      expect(answer.choices[0]!.message.content).toBe("Hello from the mock upstream.");
      expect(answer.usage).toEqual({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 });
      const stream = await client.chat.completions.create({
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "hi" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      const chunks = [];
      for await (const chunk of stream) chunks.push(chunk);
      expect(chunks.map((chunk) => chunk.choices[0]?.delta?.content ?? "").join("")).toBe("Hello from the ");
      expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 });
      expect(upstream.received.map((request) => request.key)).toEqual(["sk-arm64", "sk-arm64"]);
      // Both calls were charged: the token's used quota moved.
      const tokens = await root.get("/api/token/?p=0&size=10");
      expect(tokens.body.data[0].used_quota).toBeGreaterThan(0);
    },
    emulatedTimeout,
  );

  test(
    "stops cleanly on SIGTERM: exit code 0, every request settled",
    async () => {
      child!.kill("SIGTERM");
      const code = await Promise.race([child!.exited, Bun.sleep(emulatedTimeout - 10_000).then(() => "still running")]);
      expect(code).toBe(0);
      expect(output).toContain("stopped: every request settled or released");
      expect(output).not.toContain("unhandled error");
    },
    emulatedTimeout,
  );
});
