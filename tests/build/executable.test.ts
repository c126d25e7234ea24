// The single executable: built by the same code as `npm run build` (once per `npm test`, see
// tests/helpers/test-target.ts), copied alone into an empty folder and started with nothing but
// PATH, as a self-hoster would: it migrates a new SQLite file and serves the API, pages, CSS,
// scripts, sign-in and signed-in calls. (The API, relay and browser suites also run against it:
// the "executable" steps of tests/run.ts.)
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ApiSession } from "../helpers/api-session.ts";
import { executablePath } from "../helpers/test-target.ts";
import { createLegacyDatabase } from "../fixtures/legacy-databases.ts";
import { seedNewApi } from "../fixtures/legacy-data.ts";
import { newApiV04 } from "../fixtures/legacy-schemas.ts";

let folder: string;
let executable: string;
let child: Bun.Subprocess<"ignore", "pipe", "pipe"> | undefined;
let baseUrl: string;
let output = "";

beforeAll(async () => {
  const built = await executablePath();
  folder = mkdtempSync(join(tmpdir(), "switchyard-run-"));
  executable = join(folder, "switchyard");
  copyFileSync(built, executable);
  Bun.spawnSync({ cmd: ["chmod", "+x", executable] });
  child = Bun.spawn({
    cmd: [executable],
    cwd: folder,
    env: { PATH: "/usr/bin:/bin", PORT: "0", HOST: "127.0.0.1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const decoder = new TextDecoder();
  void (async () => {
    for await (const chunk of child!.stdout) output += decoder.decode(chunk);
  })();
  void (async () => {
    for await (const chunk of child!.stderr) output += decoder.decode(chunk);
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
  test("creates its SQLite file under ./data, locked beside it, and prints the setup code", () => {
    expect(existsSync(join(folder, "data", "switchyard.db"))).toBe(true);
    expect(existsSync(join(folder, "data", "switchyard.db.lock"))).toBe(true);
    expect(output).toMatch(/WARN setup code [0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}: /);
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

  test("signs root in, and the signed-in calls and pages work", async () => {
    const root = new ApiSession(baseUrl);
    const result = await root.login("root", "123456");
    expect(result.body.success).toBe(true);
    expect(result.body.data.role).toBe(100);
    // A first sign-in with the default password meets the gate: pages ask for a new one first.
    const gated = await fetch(`${baseUrl}/token`, { headers: { cookie: root.cookie }, redirect: "manual" });
    expect(await gated.text()).toContain("设置新密码");
    const changed = await root.put("/api/user/self", {
      password: "root-first-run-1",
      password2: "root-first-run-1",
      original_password: "123456",
    });
    expect(changed.body.success).toBe(true);
    // Every one of these goes through the role macro that read the session cookie.
    const self = await root.get("/api/user/self");
    expect(self.status).toBe(200);
    expect(self.body.data.username).toBe("root");
    const created = await root.post("/api/token/", { name: "from the executable", unlimited_quota: true });
    expect(created.body).toMatchObject({ success: true });
    const tokens = await root.get("/api/token/?p=0&size=10");
    expect(tokens.body.data.map((token: { name: string }) => token.name)).toContain("from the executable");
    const channels = await root.get("/api/channel/?p=0&page_size=10");
    expect(channels.body.success).toBe(true);
    const page = await fetch(`${baseUrl}/token`, { headers: { cookie: root.cookie }, redirect: "manual" });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("from the executable");
    expect(output).not.toContain("unhandled error");
  });

  test("prints its version and help", () => {
    const version = Bun.spawnSync({ cmd: [executable, "--version"] });
    // npm run build compiles for this machine, stamped like a release (src/build/build-stamp.ts).
    expect(version.stdout.toString().trim()).toMatch(
      /^switchyard \d+\.\d+\.\d+, commit \S+, target linux-x64, built \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    const help = Bun.spawnSync({ cmd: [executable, "--help"] });
    expect(help.stdout.toString()).toContain("SQL_DSN");
  });

  test("backs up its store while serving, and imports a new-api database", async () => {
    const env = { PATH: "/usr/bin:/bin" };
    const backup = Bun.spawnSync({
      cmd: [executable, "backup", join(folder, "copy.db")],
      cwd: folder,
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    expect(backup.stderr.toString()).toBe("");
    expect(backup.stdout.toString()).toContain("integrity ok");
    const source = await createLegacyDatabase("sqlite", newApiV04);
    try {
      const seeded = await seedNewApi(source, "http://127.0.0.1:9", "v04");
      const target = { ...env, SQLITE_PATH: join(folder, "imported", "store.db") };
      const imported = Bun.spawnSync({
        cmd: [executable, "import", source.source, "--with-logs"],
        cwd: folder,
        env: target,
        stdout: "pipe",
        stderr: "pipe",
      });
      expect(imported.exitCode).toBe(0);
      expect(imported.stdout.toString()).toContain("Import finished");
      const { Database } = await import("bun:sqlite");
      const store = new Database(target.SQLITE_PATH, { readonly: true });
      const alice = store.query("select quota from users where username = 'alice'").get() as { quota: number };
      store.close();
      expect(alice.quota).toBe(seeded.alice.quota);
    } finally {
      await source.dispose();
    }
  });
});
