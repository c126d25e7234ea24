// Hosted tools across formats (issue 24 item 1): the web search every Codex turn asks for runs on
// the vendor's own equivalent when the channel allows it (setting `hosted_tools`: Claude's web
// search server tool, Gemini's Search grounding), and is left out otherwise, the log naming it;
// a tool_choice naming it is refused where nothing can run it. Strict imitations judge the calls.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startAgentWorld, type AgentWorld } from "../../helpers/agent-world.ts";
import { ChannelType } from "../../../src/services/channels/channel-types.ts";

let world: AgentWorld;

beforeAll(async () => {
  world = await startAgentWorld();
  const add = async (input: Record<string, unknown>) => {
    const result = await world.root.post("/api/channel/", { group: "default", setting: JSON.stringify({ hosted_tools: true }), ...input });
    if (!result.body.success) throw new Error(JSON.stringify(result.body));
  };
  await add({ name: "claude-search", type: ChannelType.Claude, key: "sk-ant-search", base_url: world.claude.url, models: "cl-search" });
  await add({ name: "gemini-search", type: ChannelType.Gemini, key: "gm-search", base_url: world.gemini.url, models: "gemini-3-search" });
  const prices = { "cl-search": 1, "gemini-3-search": 1, "claude-sonnet-4-5": 1, "gemini-3-pro-preview": 1 };
  await world.root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify(prices) });
});
afterAll(() => world.stop());

const codexTurn = (model: string, extra: Record<string, unknown> = {}) => ({
  model,
  input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "What is new in Bun?" }] }],
  tools: [
    { type: "function", name: "exec_command", parameters: { type: "object", properties: { cmd: { type: "string" } }, required: ["cmd"] } },
    { type: "web_search", external_web_access: true, search_content_types: ["text", "image"] },
  ],
  store: false,
  ...extra,
});

async function post(body: unknown) {
  const response = await fetch(`${world.server.url}/v1/responses`, {
    method: "POST",
    headers: { authorization: `Bearer ${world.key}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, json: (await response.json()) as any };
}

async function lastLogOther(): Promise<Record<string, any>> {
  const [row] = await world.server.store.query<{ other: string }>("select other from logs where type = 2 order by id desc limit 1");
  return JSON.parse(row!.other);
}

describe("web search", () => {
  test("a Claude channel that allows it runs Anthropic's web search server tool", async () => {
    const answer = await post(codexTurn("cl-search"));
    expect(answer.status).toBe(200);
    const tools = world.claude.received.at(-1)!.json.tools;
    expect(tools).toEqual([expect.objectContaining({ name: "exec_command" }), { type: "web_search_20250305", name: "web_search" }]);
    expect((await lastLogOther()).tools_left_out).toBeUndefined();
  });

  test("a Gemini 3 channel that allows it grounds with Google Search beside the functions", async () => {
    const answer = await post(codexTurn("gemini-3-search"));
    expect(answer.status).toBe(200);
    const tools = world.gemini.received.at(-1)!.json.tools;
    expect(tools.at(-1)).toEqual({ googleSearch: {} });
    expect(tools[0].functionDeclarations[0].name).toBe("exec_command");
  });

  test("a channel that does not allow it goes without, and the log names what was left out", async () => {
    const answer = await post(codexTurn("claude-sonnet-4-5"));
    expect(answer.status).toBe(200);
    expect(world.claude.received.at(-1)!.json.tools.map((tool: { name: string }) => tool.name)).toEqual(["exec_command"]);
    expect((await lastLogOther()).tools_left_out).toEqual(["web_search"]);
  });

  test("tool_choice naming it: run where allowed, refused where not", async () => {
    expect((await post(codexTurn("cl-search", { tool_choice: { type: "web_search" } }))).status).toBe(200);
    expect(world.claude.received.at(-1)!.json.tool_choice).toEqual({ type: "tool", name: "web_search" });
    const before = world.gemini.received.length;
    const refused = await post(codexTurn("gemini-3-pro-preview", { tool_choice: { type: "web_search" } }));
    expect(refused.status).toBe(400);
    expect(refused.json.error.message).toContain("web_search");
    expect(world.gemini.received.length).toBe(before);
  });

  test("no imitation refused anything", () => {
    expect(world.refusals().map((entry) => entry.refusal)).toEqual([]);
  });
});
