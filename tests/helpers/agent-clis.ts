// Today's coding agents, installed from npm for the agent suite (issue 24) the way the browser
// suites install Chromium: on first use, at pinned versions, into a folder of their own that
// later runs reuse (the system temp dir, or AGENT_CLIS_DIR). They are not dependencies of the
// gateway, so a self-hoster's `npm install` stays light. Each is then run non-interactively in
// an isolated home against the gateway, with the settings that keep it off every other host.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const agentVersions = {
  codex: { pkg: "@openai/codex", version: "0.171.0" },
  claude: { pkg: "@anthropic-ai/claude-code", version: "2.1.332" },
  gemini: { pkg: "@google/gemini-cli", version: "0.61.0" },
} as const;

export type AgentName = keyof typeof agentVersions;

const root = process.env.AGENT_CLIS_DIR ?? join(tmpdir(), "switchyard-agent-clis");

/** The command that starts an installed agent (relative parts under its install folder). */
const entries: Record<AgentName, (folder: string) => string[]> = {
  codex: (folder) => [join(folder, "node_modules", ".bin", "codex")],
  claude: (folder) => [join(folder, "node_modules", ".bin", "claude")],
  gemini: (folder) => ["node", join(folder, "node_modules", "@google", "gemini-cli", "bundle", "gemini.js")],
};

const installs = new Map<AgentName, Promise<string[]>>();

async function install(name: AgentName): Promise<string[]> {
  const { pkg, version } = agentVersions[name];
  const folder = join(root, `${name}-${version}`);
  const command = entries[name](folder);
  if (existsSync(command.at(-1)!)) return command;
  // Installed beside, then moved in whole: a run cut short never leaves a half-installed agent.
  const staging = `${folder}.installing-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "package.json"), JSON.stringify({ name: `agent-${name}`, private: true }));
  const child = Bun.spawn({
    cmd: ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error", `${pkg}@${version}`],
    cwd: staging,
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  if (exitCode !== 0) throw new Error(`npm install ${pkg}@${version} failed (${exitCode}):\n${stderr}`);
  if (existsSync(folder)) rmSync(staging, { recursive: true, force: true });
  else renameSync(staging, folder);
  if (!existsSync(command.at(-1)!)) throw new Error(`${pkg}@${version} installed without ${command.at(-1)}`);
  return command;
}

/** The command starting the agent, installing it first when it is missing. */
export function agentCommand(name: AgentName): Promise<string[]> {
  let pending = installs.get(name);
  if (!pending) installs.set(name, (pending = install(name)));
  return pending;
}

export type AgentRun = { exitCode: number; stdout: string; stderr: string; seconds: number };

/** No host but the gateway's: anything else is sent to a closed local port and fails at once. */
const offline = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  ALL_PROXY: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1,localhost",
};

/** Runs a command in a clean environment (nothing inherited but PATH), stdin closed. */
export async function runAgent(
  command: string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<AgentRun> {
  const started = performance.now();
  const child = Bun.spawn({
    cmd: command,
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin", TERM: "dumb", ...offline, ...options.env },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs);
  const [stdout, stderr, exitCode] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { exitCode, stdout, stderr, seconds: (performance.now() - started) / 1000 };
}

/** A fresh home and working folder for one run. */
export function agentHome(label: string): { home: string; work: string } {
  const base = join(tmpdir(), `switchyard-agent-run-${label}-${crypto.randomUUID().slice(0, 8)}`);
  const home = join(base, "home");
  const work = join(base, "work");
  mkdirSync(home, { recursive: true });
  mkdirSync(work, { recursive: true });
  return { home, work };
}

/** Codex: `codex exec` with a provider of its own pointed at the gateway (Responses wire). */
export function codexSetup(home: string, gateway: string, model: string): Record<string, string> {
  const codexHome = join(home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, "config.toml"),
    [
      `model = "${model}"`,
      `model_provider = "switchyard"`,
      `approval_policy = "never"`,
      `sandbox_mode = "danger-full-access"`,
      `check_for_update_on_startup = false`,
      "",
      "[model_providers.switchyard]",
      `name = "Switchyard"`,
      `base_url = "${gateway}/v1"`,
      `env_key = "SWITCHYARD_API_KEY"`,
      `wire_api = "responses"`,
      "request_max_retries = 0",
      "stream_max_retries = 0",
      "",
      "[analytics]",
      "enabled = false",
      "[feedback]",
      "enabled = false",
      "",
    ].join("\n"),
  );
  return { HOME: home, CODEX_HOME: codexHome };
}

/** Gemini CLI: API-key auth (the base URL then comes from GOOGLE_GEMINI_BASE_URL), no statistics. */
export function geminiSetup(home: string): Record<string, string> {
  mkdirSync(join(home, ".gemini"), { recursive: true });
  writeFileSync(
    join(home, ".gemini", "settings.json"),
    JSON.stringify({
      security: { auth: { selectedType: "gemini-api-key" } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { enableAutoUpdate: false, enableAutoUpdateNotification: false },
    }),
  );
  return { HOME: home, GEMINI_CLI_NO_RELAUNCH: "true" };
}
