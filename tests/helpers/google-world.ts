// The relay world for the Google kinds: the real gateway, root's session, and the Google
// imitation (Gemini, PaLM, Vertex AI) that channels point at.
import type OpenAI from "openai";
import { startGoogleUpstream, type GoogleUpstream } from "../fixtures/google-upstream.ts";
import { addChannel, addToken, n, one, openai, setOptions, startRelayWorld, type ChannelInput, type RelayWorld } from "./relay-world.ts";

export type GoogleWorld = RelayWorld & { google: GoogleUpstream };

export async function startGoogleWorld(env: Record<string, string> = {}): Promise<GoogleWorld> {
  const world = await startRelayWorld(env);
  const google = await startGoogleUpstream();
  return {
    ...world,
    google,
    async stop() {
      await world.stop();
      await google.stop();
    },
  };
}

/** A channel of a Google kind at the imitation. */
export const addGoogleChannel = (world: GoogleWorld, input: ChannelInput) => addChannel(world, { base_url: world.google.url, ...input });

export type Balances = { user: number; channel: number; logs: number };

export async function balances(world: GoogleWorld, channelId: number): Promise<Balances> {
  const user = await one(world, "select used_quota from users where id = 1");
  const channel = await one(world, "select used_quota from channels where id = ?", channelId);
  const logs = await one(world, "select count(*) as count from logs where type = 2");
  return { user: n(user.used_quota), channel: n(channel.used_quota), logs: n(logs.count) };
}

export const lastLog = (world: GoogleWorld) => one(world, "select * from logs where type = 2 order by id desc limit 1");
export const channelStatus = async (world: GoogleWorld, id: number) =>
  n((await one(world, "select status from channels where id = ?", id)).status);

/** A streamed chat read to its end: text, reasoning, tool calls (with extra fields) and the usage chunk. */
export async function readStream(client: OpenAI, body: Record<string, unknown>) {
  const stream = await client.chat.completions.create({ ...body, stream: true } as never);
  let content = "";
  let reasoning = "";
  let finish: string | null = null;
  let usage: unknown = null;
  const toolCalls: Record<string, any>[] = [];
  for await (const chunk of stream as unknown as AsyncIterable<any>) {
    if (chunk.usage) usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) continue;
    content += choice.delta?.content ?? "";
    reasoning += choice.delta?.reasoning_content ?? "";
    for (const call of choice.delta?.tool_calls ?? []) {
      const entry = (toolCalls[call.index] ??= { id: "", type: "function", function: { name: "", arguments: "" } });
      if (call.id) entry.id = call.id;
      if (call.function?.name) entry.function.name += call.function.name;
      if (call.function?.arguments) entry.function.arguments += call.function.arguments;
      if (call.extra_content) entry.extra_content = call.extra_content;
    }
    if (choice.finish_reason) finish = choice.finish_reason;
  }
  return { content, reasoning, finish, usage, toolCalls };
}

export { addToken, openai, setOptions };
