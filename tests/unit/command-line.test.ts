// Configuration from the environment and the command line; bad configuration exits with 2.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { readCommandLine } from "../../src/command-line.ts";
import { ConfigError, readConfig } from "../../src/config.ts";

const main = join(import.meta.dir, "..", "..", "src", "main.ts");

describe("readConfig", () => {
  test("defaults: port 3000, SQLite under ./data", () => {
    const config = readConfig({});
    expect(config.port).toBe(3000);
    expect(config.store).toEqual({ dialect: "sqlite", path: "./data/switchyard.db" });
    expect(config.redisUrl).toBeUndefined();
    expect(config.sessionSecret).toBeUndefined();
    expect(config.shutdownGraceSeconds).toBe(30);
    expect(readConfig({ SHUTDOWN_GRACE_PERIOD: "5" }).shutdownGraceSeconds).toBe(5);
  });

  test("SQL_DSN with a postgres:// URL switches to PostgreSQL; 'local' keeps SQLite", () => {
    expect(readConfig({ SQL_DSN: "postgres://u@h:5432/db" }).store).toEqual({ dialect: "pg", url: "postgres://u@h:5432/db" });
    expect(readConfig({ SQL_DSN: "local" }).store.dialect).toBe("sqlite");
  });

  test.each([
    [{ PORT: "http" }, "invalid PORT"],
    [{ PORT: "70000" }, "invalid PORT"],
    [{ SQL_DSN: "mysql://root@localhost/db" }, "invalid SQL_DSN"],
    [{ REDIS_CONN_STRING: "localhost:6379" }, "invalid REDIS_CONN_STRING"],
    [{ SESSION_SECRET: "random_string" }, "invalid SESSION_SECRET"],
    [{ SESSION_SECRET: "short" }, "invalid SESSION_SECRET"],
    [{ SHUTDOWN_GRACE_PERIOD: "-1" }, "invalid SHUTDOWN_GRACE_PERIOD"],
  ])("%j is refused", (environment, message) => {
    expect(() => readConfig(environment)).toThrow(ConfigError);
    expect(() => readConfig(environment)).toThrow(message);
  });

  test("empty values count as unset", () => {
    expect(readConfig({ PORT: "", SQL_DSN: "", SESSION_SECRET: "" }).port).toBe(3000);
  });
});

describe("readCommandLine", () => {
  test("--port, --version, --help", () => {
    expect(readCommandLine(["--port", "8080"])).toEqual({ action: "serve", port: 8080 });
    expect(readCommandLine(["--port=9090"])).toEqual({ action: "serve", port: 9090 });
    expect(readCommandLine(["--version"]).action).toBe("version");
    expect(readCommandLine(["--help"]).action).toBe("help");
    expect(() => readCommandLine(["--port", "x"])).toThrow(ConfigError);
    expect(() => readCommandLine(["--frobnicate"])).toThrow("unknown argument --frobnicate");
  });

  test("import <source> with its flags; backup [file]", () => {
    expect(readCommandLine(["import", "one-api.db"])).toEqual({
      action: "import",
      request: { source: "one-api.db", dryRun: false, merge: false, withLogs: false, mergeOptions: false, rootRole: "common" },
    });
    expect(readCommandLine(["import", "--dry-run", "mysql://root@h/db", "--merge", "--with-logs"])).toEqual({
      action: "import",
      request: { source: "mysql://root@h/db", dryRun: true, merge: true, withLogs: true, mergeOptions: false, rootRole: "common" },
    });
    expect(readCommandLine(["import", "a.db", "--merge", "--merge-options", "--root-role=admin"])).toMatchObject({
      request: { merge: true, mergeOptions: true, rootRole: "admin" },
    });
    expect(() => readCommandLine(["import", "a.db", "--root-role=root"])).toThrow("invalid --root-role: root");
    expect(() => readCommandLine(["import", "a.db", "--merge-options"])).toThrow("--merge-options goes with --merge");
    expect(() => readCommandLine(["import"])).toThrow("import needs exactly one source");
    expect(() => readCommandLine(["import", "a.db", "b.db"])).toThrow("import needs exactly one source");
    expect(() => readCommandLine(["import", "a.db", "--force"])).toThrow("unknown import option --force");
    expect(readCommandLine(["backup"])).toEqual({ action: "backup", file: undefined });
    expect(readCommandLine(["backup", "/backups/x.db"])).toEqual({ action: "backup", file: "/backups/x.db" });
    expect(() => readCommandLine(["backup", "a", "b"])).toThrow("at most one file");
  });
});

describe("metrics and backup settings", () => {
  test("metrics stay off by default; enabling them needs a bearer token of 16 characters or more", () => {
    expect(readConfig({}).metrics).toEqual({ enabled: false });
    expect(readConfig({ METRICS_ENABLED: "true", METRICS_TOKEN: "0123456789abcdef" }).metrics).toEqual({
      enabled: true,
      token: "0123456789abcdef",
    });
    expect(() => readConfig({ METRICS_ENABLED: "true" })).toThrow("invalid METRICS_TOKEN: must be set");
    expect(() => readConfig({ METRICS_ENABLED: "true", METRICS_TOKEN: "short" })).toThrow("invalid METRICS_TOKEN");
  });

  test("BACKUP_DIR and BACKUP_KEEP are optional overrides of the backup options; BACKUP_KEEP is at least 1", () => {
    expect(readConfig({}).backup).toEqual({ dir: undefined, keep: undefined });
    expect(readConfig({ BACKUP_DIR: "/var/backups/switchyard", BACKUP_KEEP: "3" }).backup).toEqual({
      dir: "/var/backups/switchyard",
      keep: 3,
    });
    expect(() => readConfig({ BACKUP_KEEP: "0" })).toThrow("invalid BACKUP_KEEP");
  });
});

describe("the process", () => {
  test("bad configuration prints one clear line and exits with code 2", () => {
    const run = Bun.spawnSync({
      cmd: [process.execPath, main],
      env: { ...process.env, PORT: "not-a-port" },
      stderr: "pipe",
      stdout: "pipe",
    });
    expect(run.exitCode).toBe(2);
    const lines = run.stderr.toString().trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toStartWith("switchyard: invalid PORT");
  });

  test("an unknown argument exits with code 2", () => {
    const run = Bun.spawnSync({ cmd: [process.execPath, main, "--nope"], stderr: "pipe" });
    expect(run.exitCode).toBe(2);
    expect(run.stderr.toString()).toContain("unknown argument --nope");
  });
});
