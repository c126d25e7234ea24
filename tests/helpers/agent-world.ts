// The world of the agent suites (issue 24): the real gateway, strict imitations of OpenAI,
// Anthropic and Google (tests/fixtures/agents), one channel of each kind (1, 14, 24) in front of
// them, and a token. The models are priced through the options (ModelRatio, CompletionRatio), so
// the suites do not depend on the built-in price tables.
import { rootSession, type ApiSession } from "./api-session.ts";
import { startTestServer, type TestServer } from "./test-server.ts";
import { startStrictClaude, type StrictClaude } from "../fixtures/agents/strict-claude.ts";
import { startStrictGemini, type StrictGemini } from "../fixtures/agents/strict-gemini.ts";
import { startStrictOpenAI, type StrictOpenAI } from "../fixtures/agents/strict-openai.ts";
import type { StrictReceived } from "../fixtures/agents/strict-claude.ts";
import { addToken } from "./relay-world.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

/** Models per channel: the name a client asks for decides the channel. */
export const agentModels = {
  openai: ["gpt-5.5", "gpt-5.5-codex", "oa-claude-code", "oa-gemini-cli"],
  claude: ["claude-opus-5-5", "claude-sonnet-4-5", "cl-codex", "cl-gemini-cli"],
  gemini: ["gemini-3-pro-preview", "gemini-3.1-pro-preview", "gemini-2.5-pro", "gm-codex", "gm-claude-code"],
};

export type AgentWorld = {
  server: TestServer;
  root: ApiSession;
  key: string;
  openai: StrictOpenAI;
  claude: StrictClaude;
  gemini: StrictGemini;
  channels: { openai: number; claude: number; gemini: number };
  /** Every request an imitation refused, for a test to assert there were none. */
  refusals(): StrictReceived[];
  stop(): Promise<void>;
};

async function addChannel(root: ApiSession, input: Record<string, unknown>): Promise<number> {
  const result = await root.post("/api/channel/", { group: "default", ...input });
  if (!result.body.success) throw new Error(`channel create failed: ${JSON.stringify(result.body)}`);
  return result.body.data[0].id;
}

export async function startAgentWorld(options: { env?: Record<string, string>; redacted?: boolean } = {}): Promise<AgentWorld> {
  const [openai, claude, gemini] = await Promise.all([
    startStrictOpenAI(),
    startStrictClaude({ redacted: options.redacted }),
    startStrictGemini(),
  ]);
  const server = await startTestServer({ env: { STREAMING_TIMEOUT: "30", ...options.env } });
  const root = await rootSession(server.url);
  const channels = {
    openai: await addChannel(root, {
      name: "openai",
      type: ChannelType.OpenAI,
      key: "sk-strict-openai",
      base_url: openai.url,
      models: agentModels.openai.join(","),
    }),
    claude: await addChannel(root, {
      name: "claude",
      type: ChannelType.Claude,
      key: "sk-ant-strict",
      base_url: claude.url,
      models: agentModels.claude.join(","),
      // The agents' model names stand for one Claude model upstream.
      model_mapping: JSON.stringify({ "cl-codex": "claude-sonnet-4-5", "cl-gemini-cli": "claude-sonnet-4-5" }),
    }),
    gemini: await addChannel(root, {
      name: "gemini",
      type: ChannelType.Gemini,
      key: "strict-gemini-key",
      base_url: gemini.url,
      models: agentModels.gemini.join(","),
      model_mapping: JSON.stringify({ "gm-codex": "gemini-3-pro-preview", "gm-claude-code": "gemini-3-pro-preview" }),
    }),
  };
  const all = Object.values(agentModels).flat();
  for (const [key, value] of Object.entries({
    ModelRatio: JSON.stringify(Object.fromEntries(all.map((model) => [model, 1]))),
    CompletionRatio: JSON.stringify(Object.fromEntries(all.map((model) => [model, 4]))),
  })) {
    const saved = await root.put("/api/option/", { key, value });
    if (!saved.body.success) throw new Error(`option ${key}: ${JSON.stringify(saved.body)}`);
  }
  const token = await addToken(root, { name: "agents" });
  return {
    server,
    root,
    key: `sk-${token.key}`,
    openai,
    claude,
    gemini,
    channels,
    refusals: () => [...openai.refusals(), ...claude.refusals(), ...gemini.refusals()],
    async stop() {
      await server.stop();
      await Promise.all([openai.stop(), claude.stop(), gemini.stop()]);
    },
  };
}
