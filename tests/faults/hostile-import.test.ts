// `switchyard import --merge` of a crafted new-api database (issue 23, item 8). The source holds
// what an attacker who controls it would try: a second root (`evilroot`), a root whose name
// differs from the store's `root` only by case (`ROOT`), role 2147483647, role -100, status 999,
// an administrator without a password, and options: ServerAddress `javascript:alert(1)`, a script
// in the Notice, metrics switched on with the attacker's token. Before, all of it was taken
// silently. Now: roles and statuses outside the known sets are left out, the store keeps one root
// (an imported root becomes --root-role, common by default), a look-alike of an existing name is
// left out, administrators are named, and options are only previewed unless --merge-options is
// given, each checked as PUT /api/option/ checks it (a script scheme in ServerAddress is refused
// there too). An import while the server runs on the same SQLite file is refused with a message
// saying so, nothing written.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createLegacyDatabase, type LegacyDatabase } from "../fixtures/legacy-databases.ts";
import { newApiCurrent } from "../fixtures/legacy-schemas.ts";
import { newUserSession, rootSession } from "../helpers/api-session.ts";
import { runSwitchyard } from "../helpers/run-command.ts";
import { storeRows } from "../helpers/store-rows.ts";
import { startTestServer, type TestServer } from "../helpers/test-server.ts";
import { createTestStore, type TestStore } from "../helpers/test-store.ts";
import { reportFigures } from "../helpers/fault-world.ts";

setDefaultTimeout(120_000);

const now = Math.floor(Date.now() / 1000);
const bcrypt = (password: string) =>
  Bun.password.hash(password, { algorithm: "bcrypt", cost: 4 }).then((hash) => hash.replace(/^\$2b\$/, "$2a$"));

function user(row: Record<string, unknown>) {
  return {
    display_name: "",
    role: 1,
    status: 1,
    email: "",
    github_id: "",
    wechat_id: "",
    telegram_id: "",
    quota: 0,
    used_quota: 0,
    request_count: 0,
    group: "default",
    aff_count: 0,
    aff_quota: 0,
    aff_history: 0,
    inviter_id: 0,
    linux_do_id: "",
    setting: "",
    created_at: now - 86_400,
    discord_id: "",
    oidc_id: "",
    ...row,
  };
}

async function hostileSource(): Promise<LegacyDatabase> {
  const source = await createLegacyDatabase("sqlite", newApiCurrent);
  const password = await bcrypt("attacker-pass");
  await source.insert("users", [
    user({ id: 1, username: "root", password, role: 100 }),
    user({ id: 2, username: "evilroot", password, role: 100 }),
    user({ id: 3, username: "ROOT", password, role: 100 }),
    user({ id: 4, username: "bigrole", password, role: 2147483647 }),
    user({ id: 5, username: "nopass", password: "", role: 10, github_id: "31337" }),
    user({ id: 6, username: "negrole", password, role: -100 }),
    user({ id: 7, username: "oddstatus", password, status: 999 }),
    user({ id: 8, username: "plain", password, quota: 5000 }),
  ]);
  await source.insert("options", [
    { key: "ServerAddress", value: "javascript:alert(1)" },
    { key: "Notice", value: "<script>alert(document.cookie)</script>" },
    { key: "MetricsToken", value: "attacker-metrics-token-0123456789" },
    { key: "MetricsEnabled", value: "true" },
    { key: "SystemName", value: "Hijacked" },
  ]);
  return source;
}

describe("a hostile source merged into a serving store", () => {
  let store: TestStore;
  let source: LegacyDatabase;
  let server: TestServer | undefined;

  beforeAll(async () => {
    store = await createTestStore();
    source = await hostileSource();
    // A Switchyard that serves: root (password changed), a user, its own address.
    server = await startTestServer({ store });
    const root = await rootSession(server.url);
    await newUserSession(server.url, "erin");
    expect((await root.put("/api/option/", { key: "ServerAddress", value: "https://gw.example.com" })).body.success).toBe(true);
  });
  afterAll(async () => {
    await server?.stop();
    await source?.dispose();
    await store?.dispose();
  });

  const users = () => storeRows(store, "select username, role, status from users order by id");
  const option = async (key: string) => (await storeRows(store, "select value from options where key = ?", key))[0]?.value;

  test.if(process.env.TEST_STORE !== "pg")(
    "an import while the server runs on the same file is refused, clearly, with nothing written",
    async () => {
      const before = await users();
      const refused = await runSwitchyard(["import", source.source, "--merge"], store.env);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toContain("is in use by another process, most likely a running Switchyard: stop it, then import");
      expect(refused.stderr).not.toContain("UNIQUE");
      expect(await users()).toEqual(before);
      reportFigures("hostile-import running server", { exitCode: refused.exitCode, message: refused.stderr.trim().split("\n")[0] });
    },
  );

  test("--merge: roles refused, one root, the look-alike left out, options previewed and not taken", async () => {
    await server!.stop();
    server = undefined;
    const result = await runSwitchyard(["import", source.source, "--merge"], store.env);
    expect(result.stderr).not.toContain("switchyard import:");
    expect(result.exitCode).toBe(0);
    const summary = result.stdout;
    expect(summary).toContain(
      "users: 2 whose role is not one of new-api's (0, 1, 10, 100): left out (e.g. bigrole (2147483647), negrole (-100))",
    );
    expect(summary).toContain("users: 1 whose status is not one Switchyard has (1, 2, 3): left out (e.g. oddstatus (999))");
    expect(summary).toContain("users: 1 who were root in the source, made common users (a store has one root) (e.g. evilroot)");
    expect(summary).toContain(
      "users: 1 whose username differs from one of the target's only by case (left out: it would pass for it) (e.g. ROOT)",
    );
    expect(summary).toContain(
      "users: 1 imported as administrators without a password: signs in only through a bound account (review them) (e.g. nopass)",
    );
    expect(summary).toContain(
      "options: 1 whose value Switchyard refuses (e.g. ServerAddress: The option ServerAddress must be an http:// or https:// link)",
    );
    expect(summary).toContain("NOT merged (4); check them, then give --merge-options to take them:");
    expect(summary).toContain('Notice: "" -> "<script>alert(document.cookie)</script>"');
    expect(summary).toContain("MetricsToken: (secret, differs)");
    expect(summary).not.toContain("attacker-metrics-token");

    const rows = await users();
    expect(rows.map((row) => [row.username, Number(row.role)])).toEqual([
      ["root", 100],
      ["erin", 1],
      ["evilroot", 1],
      ["nopass", 10],
      ["plain", 1],
    ]);
    expect(rows.filter((row) => Number(row.role) >= 100)).toHaveLength(1);
    expect(rows.every((row) => [1, 2, 3].includes(Number(row.status)))).toBe(true);
    // The store's settings are untouched.
    expect(await option("ServerAddress")).toBe("https://gw.example.com");
    expect(await option("Notice")).toBe("");
    expect(await option("MetricsEnabled")).toBe("false");
    expect(await option("SystemName")).not.toBe("Hijacked");
    reportFigures("hostile-import merge", { users: rows.length, roots: 1, optionsPreviewed: 4, optionsTaken: 0 });
  });

  test("--merge --merge-options --root-role=admin: each option checked as PUT /api/option/ checks it; a root becomes admin", async () => {
    // Another source with one more root, and the same options.
    const second = await createLegacyDatabase("sqlite", newApiCurrent);
    try {
      await second.insert("users", [user({ id: 1, username: "otherroot", password: await bcrypt("x-pass"), role: 100 })]);
      await second.insert("options", [
        { key: "ServerAddress", value: " JaVaScRiPt:alert(1)" },
        { key: "MetricsEnabled", value: "true" },
        { key: "Notice", value: "<b>maintenance tonight</b>" },
      ]);
      const result = await runSwitchyard(["import", second.source, "--merge", "--merge-options", "--root-role=admin"], store.env);
      expect(result.exitCode).toBe(0);
      expect(result.stdout).toContain("users: 1 who were root in the source, made administrators (a store has one root) (e.g. otherroot)");
      expect(result.stdout).toContain("options merged from the source (1):");
      // Metrics need their token, which this source did not give and the store does not have.
      expect(result.stdout).toContain("MetricsEnabled:");
      expect(result.stdout).toContain("ServerAddress:");
      const [otherroot] = await storeRows(store, "select role from users where username = 'otherroot'");
      expect(Number(otherroot.role)).toBe(10);
      expect(await option("Notice")).toBe("<b>maintenance tonight</b>");
      expect(await option("MetricsEnabled")).toBe("false");
      expect(await option("ServerAddress")).toBe("https://gw.example.com");
    } finally {
      await second.dispose();
    }
  });

  test("ServerAddress refuses script schemes through PUT /api/option/ too, and a stored one is not shown", async () => {
    server = await startTestServer({ store });
    const root = await rootSession(server.url);
    for (const value of ["javascript:alert(1)", " javascript:alert(1)", "JAVA\tSCRIPT:alert(1)", "data:text/html,x", "vbscript:x"]) {
      const answer = await root.put("/api/option/", { key: "ServerAddress", value });
      expect([value, answer.body.success]).toEqual([value, false]);
    }
    expect((await root.put("/api/option/", { key: "ServerAddress", value: "https://gw2.example.com/" })).body.success).toBe(true);
    // A value stored before this rule existed never reaches a page.
    await store.query("update options set value = 'javascript:alert(1)' where key = 'ServerAddress'");
    await server.stop();
    server = await startTestServer({ store });
    const status = await (await fetch(`${server.url}/api/status`)).json();
    expect(status.data.server_address).toBe("");
    const home = await (await fetch(`${server.url}/`)).text();
    expect(home).not.toContain("javascript:alert");
  });
});
