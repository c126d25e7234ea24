// Today's coding agents, unchanged, through the gateway (issue 24): the real Codex CLI, Claude
// Code and Gemini CLI from npm (pinned, installed on first use: tests/helpers/agent-clis.ts),
// each pointed at the gateway with its documented settings, over an OpenAI (1), a Claude (14)
// and a Gemini (24) channel in front of strict imitations of each vendor. Each agent answers one
// plain prompt and runs one tool loop with its own shell tool (the command really runs: the
// imitation only learns the echoed token from the tool's output). The runs go in parallel, a
// few at a time, against one gateway and one set of imitations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { dirname } from "node:path";
import { agentCommand, agentHome, codexSetup, geminiSetup, runAgent, type AgentName, type AgentRun } from "../helpers/agent-clis.ts";
import { startAgentWorld, type AgentWorld } from "../helpers/agent-world.ts";
import { addToken } from "../helpers/relay-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

let world: AgentWorld;

/** Model names per agent and channel (agent-world.ts maps them to each vendor's model). */
const models: Record<AgentName, Record<"openai" | "claude" | "gemini", string>> = {
  codex: { openai: "gpt-5.5", claude: "cl-codex", gemini: "gm-codex" },
  claude: { openai: "oa-claude-code", claude: "claude-opus-5-5", gemini: "gm-claude-code" },
  gemini: { openai: "oa-gemini-cli", claude: "cl-gemini-cli", gemini: "gemini-3.1-pro-preview" },
};
const vendorNames = { openai: "OpenAI", claude: "Claude", gemini: "Gemini" } as const;
type Channel = keyof typeof vendorNames;

/**
 * Codex sends its full tool set (the freeform apply_patch, tool_search, web_search) and a
 * reasoning effort only for a model it knows: gpt-5.5, routed to Claude and to Gemini 3 through
 * groups of their own (tokens of those groups), so those tools and Claude's thinking cross too.
 */
const fullCodexGroups = { claude: "vip", gemini: "svip" } as const;
const fullCodexKeys: Partial<Record<"claude" | "gemini", string>> = {};
type Scenario = "plain" | "tool";

/** What an agent finally said, read from its JSON event output. */
function finalText(agent: AgentName, stdout: string): string {
  const events = stdout
    .split("\n")
    .filter((line) => line.trim().startsWith("{"))
    .map((line) => {
      try {
        return JSON.parse(line);
      } catch {
        return {};
      }
    });
  if (agent === "codex") {
    return events
      .filter((event) => event.type === "item.completed" && event.item?.type === "agent_message")
      .map((event) => event.item.text)
      .join("\n");
  }
  if (agent === "claude") return events.find((event) => event.type === "result")?.result ?? "";
  return events
    .filter((event) => event.type === "message" && event.role === "assistant")
    .map((event) => event.content)
    .join("");
}

async function runOne(
  agent: AgentName,
  channel: Channel,
  scenario: Scenario,
  token: string,
  full?: "claude" | "gemini",
): Promise<AgentRun & { text: string }> {
  const command = await agentCommand(agent);
  const { home, work } = agentHome(`${agent}-${channel}-${scenario}`);
  const model = full ? "gpt-5.5" : models[agent][channel];
  const key = full ? fullCodexKeys[full]! : world.key;
  const prompt = scenario === "tool" ? `Run \`echo ${token}\` with your shell tool, then tell me what it printed.` : "Say hello.";
  const gateway = world.server.url;
  let argv: string[];
  let env: Record<string, string>;
  if (agent === "codex") {
    env = { ...codexSetup(home, gateway, model), SWITCHYARD_API_KEY: key };
    argv = [...command, "exec", "--skip-git-repo-check", "--json", "--disable", "plugins", prompt];
  } else if (agent === "claude") {
    env = {
      HOME: home,
      ANTHROPIC_BASE_URL: gateway,
      ANTHROPIC_API_KEY: world.key,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      DISABLE_TELEMETRY: "1",
      DISABLE_ERROR_REPORTING: "1",
      DISABLE_AUTOUPDATER: "1",
      CLAUDE_CODE_MAX_RETRIES: "0",
    };
    argv = [...command, "-p", prompt, "--model", model, "--output-format", "stream-json", "--verbose", "--allowedTools", "Bash"];
  } else {
    env = { ...geminiSetup(home), GEMINI_API_KEY: world.key, GOOGLE_GEMINI_BASE_URL: gateway };
    argv = [...command, "-p", prompt, "-m", model, "-o", "stream-json", "--skip-trust", "--approval-mode", "yolo"];
  }
  const result = await runAgent(argv, { cwd: work, env, timeoutMs: 120_000 });
  rmSync(dirname(home), { recursive: true, force: true });
  return { ...result, text: finalText(agent, result.stdout) };
}

/** At most this many agents at once: each is a large native program on a small machine. */
const parallel = 3;
const runs = new Map<string, Promise<AgentRun & { text: string }>>();
const tokens = new Map<string, string>();
let started = 0;

beforeAll(async () => {
  world = await startAgentWorld();
  await world.root.put("/api/option/", {
    key: "UserUsableGroups",
    value: JSON.stringify({ default: "default", vip: "vip", svip: "svip" }),
  });
  for (const [vendor, group] of Object.entries(fullCodexGroups) as ["claude" | "gemini", string][]) {
    const upstream =
      vendor === "claude"
        ? { type: ChannelType.Claude, base_url: world.claude.url, to: "claude-sonnet-4-5" }
        : { type: ChannelType.Gemini, base_url: world.gemini.url, to: "gemini-3-pro-preview" };
    const channel = await world.root.post("/api/channel/", {
      name: `codex-${vendor}`,
      type: upstream.type,
      key: `full-codex-${vendor}`,
      base_url: upstream.base_url,
      models: "gpt-5.5",
      group,
      model_mapping: JSON.stringify({ "gpt-5.5": upstream.to }),
    });
    if (!channel.body.success) throw new Error(JSON.stringify(channel.body));
    fullCodexKeys[vendor] = `sk-${(await addToken(world.root, { name: `codex-${group}`, group })).key}`;
  }
  started = performance.now();
  // Installing the three (first run only) goes in parallel; then the runs, a few at a time.
  await Promise.all((["codex", "claude", "gemini"] as const).map(agentCommand));
  const queue: (() => Promise<unknown>)[] = [];
  for (const agent of ["codex", "claude", "gemini"] as const) {
    for (const channel of ["openai", "claude", "gemini"] as const) {
      for (const scenario of ["plain", "tool"] as const) {
        const key = `${agent}/${channel}/${scenario}`;
        const token = `${agent}-${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
        tokens.set(key, token);
        let resolve!: (value: AgentRun & { text: string }) => void;
        runs.set(key, new Promise((done) => (resolve = done)));
        queue.push(() =>
          runOne(agent, channel, scenario, token).then(resolve, (error) =>
            resolve({ exitCode: -1, stdout: "", stderr: String(error), seconds: 0, text: "" }),
          ),
        );
      }
    }
  }
  for (const full of ["claude", "gemini"] as const) {
    const key = `codex/${full}-full/tool`;
    const token = `codex-${crypto.randomUUID().replaceAll("-", "").slice(0, 10)}`;
    tokens.set(key, token);
    let resolve!: (value: AgentRun & { text: string }) => void;
    runs.set(key, new Promise((done) => (resolve = done)));
    queue.push(() =>
      runOne("codex", full, "tool", token, full).then(resolve, (error) =>
        resolve({ exitCode: -1, stdout: "", stderr: String(error), seconds: 0, text: "" }),
      ),
    );
  }
  const workers = Array.from({ length: parallel }, async () => {
    for (let next = queue.shift(); next; next = queue.shift()) await next();
  });
  void Promise.all(workers);
}, 600_000);

afterAll(async () => {
  console.log(`agent runs took ${((performance.now() - started) / 1000).toFixed(1)} s in all`);
  await world.stop();
});

describe.each(["codex", "claude", "gemini"] as const)("%s", (agent) => {
  describe.each(["openai", "claude", "gemini"] as const)("over the %s channel", (channel) => {
    test("a plain prompt", async () => {
      const run = await runs.get(`${agent}/${channel}/plain`)!;
      expect({ exit: run.exitCode, stderr: run.exitCode === 0 ? "" : run.stderr.slice(-2000) }).toEqual({ exit: 0, stderr: "" });
      expect(run.text).toContain(`Hello from ${vendorNames[channel]}.`);
    }, 300_000);

    test("a tool loop with its shell tool", async () => {
      const run = await runs.get(`${agent}/${channel}/tool`)!;
      expect({ exit: run.exitCode, stderr: run.exitCode === 0 ? "" : run.stderr.slice(-2000) }).toEqual({ exit: 0, stderr: "" });
      expect(run.text).toContain(`The command printed ${tokens.get(`${agent}/${channel}/tool`)} (${vendorNames[channel]}).`);
    }, 300_000);
  });
});

describe.each(["claude", "gemini"] as const)("codex with its full tool set (gpt-5.5) over the %s channel", (full) => {
  test("a tool loop: apply_patch, tool_search and web_search cross, reasoning on", async () => {
    const run = await runs.get(`codex/${full}-full/tool`)!;
    expect({ exit: run.exitCode, stderr: run.exitCode === 0 ? "" : run.stderr.slice(-2000) }).toEqual({ exit: 0, stderr: "" });
    expect(run.text).toContain(`The command printed ${tokens.get(`codex/${full}-full/tool`)} (${vendorNames[full]}).`);
    const upstream = full === "claude" ? world.claude : world.gemini;
    const asked = upstream.received.filter(
      (entry) => entry.headers["x-api-key"] === "full-codex-claude" || entry.headers["x-goog-api-key"] === "full-codex-gemini",
    );
    expect(asked.length).toBe(2);
    const names =
      full === "claude"
        ? asked[0]!.json.tools.map((tool: { name: string }) => tool.name)
        : asked[0]!.json.tools[0].functionDeclarations.map((declaration: { name: string }) => declaration.name);
    expect(names).toContain("apply_patch");
    expect(names).toContain("tool_search");
    if (full === "claude") {
      // Codex's reasoning effort turned thinking on; its tool step came back signed (from Codex's reasoning item).
      expect(asked[1]!.json.thinking?.type).toBe("enabled");
      const step = asked[1]!.json.messages.filter((message: { role: string }) => message.role === "assistant").at(-1);
      expect(step.content[0].type).toBe("thinking");
    }
  }, 300_000);
});

test("the imitations refused nothing, and every call was billed with its inbound format", async () => {
  await Promise.all(runs.values());
  expect(world.refusals().map((entry) => `${entry.path}: ${entry.refusal}`)).toEqual([]);
  const rows = await world.server.store.query<{ other: string; channel_id: number }>("select other, channel_id from logs where type = 2");
  const formats = new Set(rows.map((row) => JSON.parse(row.other).inbound_format ?? "openai"));
  expect([...formats].sort()).toEqual(["claude", "gemini", "responses"]);
}, 300_000);

test("what crossed formats: Codex's namespace tool flattened, its web search left out, Gemini's signatures given back", async () => {
  await Promise.all(runs.values());
  // Codex, on a model it has no metadata for, sends its multi_agent_v1 namespace: flat functions upstream.
  const flat = world.claude.received.flatMap((entry) => (entry.json.tools ?? []).map((tool: { name?: string }) => tool.name));
  expect(flat).toContain("multi_agent_v1__spawn_agent");
  const [codexRow] = await world.server.store.query<{ other: string }>(
    "select other from logs where type = 2 and model_name = 'cl-codex' order by id desc limit 1",
  );
  expect(JSON.parse(codexRow!.other).tools_left_out).toEqual(["web_search"]);
  // Every function call that came back to the Gemini 3 imitation carried the signature it issued,
  // whichever agent and format it went through (Claude Code's thinking block, Codex's reasoning item).
  const calls = world.gemini.received.flatMap((entry) =>
    (entry.json.contents ?? [])
      .filter((content: { role: string }) => content.role === "model")
      .flatMap((content: { parts: Record<string, any>[] }) => content.parts.filter((part) => part.functionCall)),
  );
  expect(calls.length).toBeGreaterThanOrEqual(3);
  for (const call of calls) expect(call.thoughtSignature).toStartWith("gmsig");
}, 300_000);
