// The single executable: built by the same code as `npm run build`, copied alone into an empty
// folder, it migrates a new SQLite file and serves the API, pages, CSS, scripts and sign-in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildExecutable } from "../../src/build/build-executable.ts";
import { ApiSession } from "../helpers/api-session.ts";

let folder: string;
let executable: string;
let child: Bun.Subprocess<"ignore", "pipe", "pipe"> | undefined;
let baseUrl: string;

beforeAll(async () => {
  const buildFolder = mkdtempSync(join(tmpdir(), "switchyard-build-"));
  const built = await buildExecutable(join(buildFolder, "switchyard"));
  folder = mkdtempSync(join(tmpdir(), "switchyard-run-"));
  executable = join(folder, "switchyard");
  copyFileSync(built, executable);
  rmSync(buildFolder, { recursive: true, force: true });
  Bun.spawnSync({ cmd: ["chmod", "+x", executable] });
  child = Bun.spawn({ cmd: [executable], cwd: folder, env: { PATH: "/usr/bin:/bin", PORT: "0", HOST: "127.0.0.1" }, stdout: "pipe", stderr: "pipe" });
  let output = "";
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of child!.stdout) output += decoder.decode(chunk);
  })();
  const deadline = Date.now() + 20_000;
  while (!/listening/.test(output)) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`executable did not start:\n${output}`);
    await Bun.sleep(20);
  }
  baseUrl = `http://127.0.0.1:${/:(\d+)"/.exec(output)![1]}`;
}, 120_000);

afterAll(() => {
  child?.kill("SIGKILL");
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe("dist/switchyard from an empty folder", () => {
  test("creates its SQLite file under ./data", () => {
    expect(existsSync(join(folder, "data", "switchyard.db"))).toBe(true);
    expect(existsSync(join(folder, "node_modules"))).toBe(false);
  });

  test("answers /api/status", async () => {
    const body = await (await fetch(`${baseUrl}/api/status`)).json();
    expect(body.success).toBe(true);
    expect(body.data.version).toBe("0.4.8.5.2");
  });

  test("serves the home page with its hashed stylesheet and runtime script", async () => {
    const html = await (await fetch(`${baseUrl}/`)).text();
    const css = /href="(\/assets\/app-[^"]+\.css)"/.exec(html)?.[1];
    const script = /src="(\/assets\/console-runtime-[^"]+\.js)"/.exec(html)?.[1];
    expect(css).toBeDefined();
    expect(script).toBeDefined();
    const cssResponse = await fetch(baseUrl + css);
    expect(cssResponse.status).toBe(200);
    expect(cssResponse.headers.get("cache-control")).toContain("immutable");
    expect((await cssResponse.text()).length).toBeGreaterThan(10_000);
    expect((await fetch(baseUrl + script)).status).toBe(200);
  });

  test("signs root in", async () => {
    const result = await new ApiSession(baseUrl).login("root", "123456");
    expect(result.body.success).toBe(true);
    expect(result.body.data.role).toBe(100);
  });

  test("prints its version and help", () => {
    const version = Bun.spawnSync({ cmd: [executable, "--version"] });
    expect(version.stdout.toString().trim()).toMatch(/^\d+\.\d+\.\d+/);
    const help = Bun.spawnSync({ cmd: [executable, "--help"] });
    expect(help.stdout.toString()).toContain("SQL_DSN");
  });
});
