// The whole channel type catalogue through one real gateway: for every relay kind a
// channel is created the way an operator would (the key in the format the drawer asks for), its
// channel test (GET /api/channel/test/{id}) must pass and reach the kind's imitation, and the
// official openai client routes one call to it, whole and streamed (embeddings for the kinds that
// only embed), seen arriving at the imitation with the kind's own path and billed to the channel.
// The drawing and music kinds (Midjourney 2 and 5, Suno 36) are served by the task relay instead:
// a submission reaches their imitations. The kinds come from the catalogue itself, so a kind
// added to it without an adaptor (or without an imitation here) fails this suite.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { ChannelType, channelTypes, channelTypeInfo } from "../../src/services/channels/channel-types.ts";
import { hasAdaptor } from "../../src/relay/providers/registry.ts";
import { startAiProxyLibraryUpstream, type AskUpstream } from "../fixtures/aiproxy-library-upstream.ts";
import { startBaiduUpstream, type BaiduUpstream } from "../fixtures/baidu-upstream.ts";
import { startBedrockUpstream, type BedrockUpstream } from "../fixtures/bedrock-upstream.ts";
import { startClaudeUpstream, type ClaudeUpstream } from "../fixtures/claude-upstream.ts";
import { startCloudflareUpstream, type CloudflareUpstream } from "../fixtures/cloudflare-upstream.ts";
import { startCohereUpstream, type CohereUpstream } from "../fixtures/cohere-upstream.ts";
import { startDashScopeUpstream, type DashScopeUpstream } from "../fixtures/dashscope-upstream.ts";
import { startDifyUpstream, type DifyUpstream } from "../fixtures/dify-upstream.ts";
import { startFastgptUpstream, type FastgptUpstream } from "../fixtures/fastgpt-upstream.ts";
import { startGoogleUpstream, type GoogleUpstream } from "../fixtures/google-upstream.ts";
import { startHunyuanUpstream, type HunyuanUpstream } from "../fixtures/hunyuan-upstream.ts";
import { startJinaUpstream, type JinaUpstream } from "../fixtures/jina-upstream.ts";
import { startM3eUpstream, type M3eUpstream } from "../fixtures/m3e-upstream.ts";
import { startMidjourneyUpstream, type MidjourneyUpstream } from "../fixtures/midjourney-upstream.ts";
import { startMinimaxUpstream, type MinimaxUpstream } from "../fixtures/minimax-upstream.ts";
import { startSparkUpstream, type SparkUpstream } from "../fixtures/spark-upstream.ts";
import { startSunoUpstream, type SunoUpstream } from "../fixtures/suno-upstream.ts";
import { startArkUpstream, type ArkUpstream } from "../fixtures/volcengine-upstream.ts";
import { startZhipuUpstream, type ZhipuUpstream } from "../fixtures/zhipu-upstream.ts";
import {
  addChannel,
  addToken,
  n,
  one,
  openai,
  postRelay,
  setOptions,
  startRelayWorld,
  type ChannelInput,
  type RelayWorld,
} from "../helpers/relay-world.ts";

/** Served by the task relay (src/relay/tasks/), not by a chat adaptor. */
const taskKinds = new Set<number>([ChannelType.Midjourney, ChannelType.MidjourneyPlus, ChannelType.Suno]);
const relayKinds = channelTypes.map((info) => info.type).filter((kind) => !taskKinds.has(kind));

type Imitations = {
  baidu: BaiduUpstream;
  bedrock: BedrockUpstream;
  claude: ClaudeUpstream;
  cloudflare: CloudflareUpstream;
  cohere: CohereUpstream;
  dashscope: DashScopeUpstream;
  dify: DifyUpstream;
  fastgpt: FastgptUpstream;
  google: GoogleUpstream;
  hunyuan: HunyuanUpstream;
  jina: JinaUpstream;
  library: AskUpstream;
  m3e: M3eUpstream;
  midjourney: MidjourneyUpstream;
  minimax: MinimaxUpstream;
  spark: SparkUpstream;
  suno: SunoUpstream;
  ark: ArkUpstream;
  zhipu: ZhipuUpstream;
};

/** What the imitation recorded, reduced to what this suite compares. */
type Seen = { path: string };

/** How one kind is reached: its channel (model aliased to what the imitation serves), and what its imitation saw of that channel. */
type KindPlan = {
  channel: Omit<ChannelInput, "models" | "model_mapping">;
  /** The upstream model the alias maps to. */
  upstreamModel: string;
  endpoint: "chat" | "embeddings";
  seen(): Seen[];
  /** The kind's own path for the calls this suite makes (whole and streamed). */
  path: RegExp;
};

let world: RelayWorld;
let up: Imitations;
let key: string;
let plans: Record<number, KindPlan>;
const fastgptApp = "64f335d84283f05518e9e041";

/** The alias a kind is called by; embedding kinds' names say so, so their channel test embeds. */
const aliasOf = (kind: number) => (plans[kind]?.endpoint === "embeddings" ? `catalogue-${kind}-embedding` : `catalogue-${kind}`);

async function startImitations(): Promise<Imitations> {
  const [
    baidu,
    bedrock,
    claude,
    cloudflare,
    cohere,
    dashscope,
    dify,
    fastgpt,
    google,
    hunyuan,
    jina,
    library,
    m3e,
    midjourney,
    minimax,
    spark,
    suno,
    ark,
    zhipu,
  ] = await Promise.all([
    startBaiduUpstream(),
    startBedrockUpstream({ credentials: { AKIACATALOGUE: "catalogue/secret" }, region: "us-east-1" }),
    startClaudeUpstream(),
    startCloudflareUpstream(),
    startCohereUpstream(),
    startDashScopeUpstream(),
    startDifyUpstream(),
    startFastgptUpstream(),
    startGoogleUpstream(),
    startHunyuanUpstream(),
    startJinaUpstream(),
    startAiProxyLibraryUpstream(),
    startM3eUpstream(),
    startMidjourneyUpstream({ secrets: ["mj-catalogue-2", "mj-catalogue-5"], finishAfterMs: 600_000 }),
    startMinimaxUpstream(),
    startSparkUpstream(),
    startSunoUpstream({ keys: ["suno-catalogue"], finishAfterMs: 600_000 }),
    startArkUpstream(),
    startZhipuUpstream(),
  ]);
  return {
    baidu,
    bedrock,
    claude,
    cloudflare,
    cohere,
    dashscope,
    dify,
    fastgpt,
    google,
    hunyuan,
    jina,
    library,
    m3e,
    midjourney,
    minimax,
    spark,
    suno,
    ark,
    zhipu,
  };
}

/** A kind of the OpenAI-compatible family at the shared OpenAI imitation, told apart by its key. */
function openAIFamily(
  type: number,
  upstreamModel: string,
  extra: Partial<KindPlan["channel"]> = {},
  path = /^\/v1\/chat\/completions$/,
): KindPlan {
  const channelKey = `sk-catalogue-${type}`;
  return {
    channel: { type, key: channelKey, base_url: world.upstream.url, ...extra },
    upstreamModel,
    endpoint: "chat",
    seen: () => world.upstream.receivedBy(channelKey),
    path,
  };
}

const byWho = (received: { who: string; path: string }[], who: string) => () => received.filter((entry) => entry.who === who);

async function plansFor(): Promise<Record<number, KindPlan>> {
  up.baidu.addApp("ak-catalogue", "sk-catalogue");
  up.baidu.addV2Key("bce-v3/ALTAK-catalogue/secret");
  up.cloudflare.addToken("cf-catalogue", "acc-catalogue");
  up.cohere.addKey("co-catalogue");
  up.dashscope.addKey("sk-ds-catalogue");
  up.dify.addApp("app-catalogue");
  up.fastgpt.addKey("fastgpt-catalogue", fastgptApp, "general");
  up.google.acceptKey("AIza-catalogue-gemini");
  up.google.acceptKey("AIza-catalogue-palm");
  const vertexEmail = "catalogue@proj-catalogue.iam.gserviceaccount.com";
  const vertex = await up.google.createServiceAccount(vertexEmail, "proj-catalogue");
  up.hunyuan.addKey("AKIDcatalogue", "secret-catalogue");
  up.jina.addKey("jina_catalogue");
  up.library.addKey("aip-catalogue", [123456]);
  up.m3e.addKey("sk-m3e-catalogue");
  up.minimax.addKey("mm-catalogue");
  up.spark.addApp("app-catalogue", "key-catalogue", "secret-catalogue");
  up.ark.addKey("ark-catalogue");
  up.zhipu.addKey("idcatalogue", "secret-catalogue");
  const claudeKey = "sk-ant-catalogue";

  return {
    1: openAIFamily(1, "gpt-4o-mini"),
    // No `other`: the API version defaults as the drawer shows it.
    3: openAIFamily(3, "gpt-4o", {}, /^\/openai\/deployments\/gpt-4o\/chat\/completions$/),
    4: openAIFamily(4, "qwen2.5"),
    8: openAIFamily(
      8,
      "custom-upstream",
      { base_url: `${world.upstream.url}/gateway/{model}/chat/completions` },
      /^\/gateway\/custom-upstream\/chat\/completions$/,
    ),
    19: openAIFamily(19, "360gpt-pro"),
    25: openAIFamily(25, "moonshot-v1-8k"),
    31: openAIFamily(31, "yi-large"),
    40: openAIFamily(40, "Qwen/Qwen2.5-7B-Instruct"),
    42: openAIFamily(42, "mistral-small-latest"),
    43: openAIFamily(43, "deepseek-chat"),
    14: {
      channel: { type: ChannelType.Claude, key: claudeKey, base_url: up.claude.url },
      upstreamModel: "claude-3-5-haiku-20241022",
      endpoint: "chat",
      seen: () => up.claude.received.filter((entry) => entry.key === claudeKey),
      path: /^\/v1\/messages$/,
    },
    33: {
      channel: { type: ChannelType.Bedrock, key: "AKIACATALOGUE|catalogue/secret|us-east-1", base_url: up.bedrock.url },
      upstreamModel: "claude-3-5-haiku-20241022",
      endpoint: "chat",
      seen: () => up.bedrock.received.filter((entry) => entry.accessKeyId === "AKIACATALOGUE"),
      path: /^\/model\/[^/]+\/(invoke|invoke-with-response-stream)$/,
    },
    41: {
      channel: { type: ChannelType.Vertex, key: vertex.keyFile, base_url: up.google.url, other: "us-central1" },
      upstreamModel: "gemini-2.5-flash",
      endpoint: "chat",
      seen: () => up.google.receivedBy(vertexEmail),
      path: /^\/v1\/projects\/proj-catalogue\/locations\/us-central1\/publishers\/google\/models\/gemini-2\.5-flash:(generateContent|streamGenerateContent)$/,
    },
    24: {
      channel: { type: ChannelType.Gemini, key: "AIza-catalogue-gemini", base_url: up.google.url },
      upstreamModel: "gemini-2.0-flash",
      endpoint: "chat",
      seen: () => up.google.receivedBy("AIza-catalogue-gemini"),
      path: /^\/v1beta\/models\/gemini-2\.0-flash:(generateContent|streamGenerateContent)$/,
    },
    11: {
      channel: { type: ChannelType.PaLM, key: "AIza-catalogue-palm", base_url: up.google.url },
      upstreamModel: "PaLM-2",
      endpoint: "chat",
      seen: () => up.google.receivedBy("AIza-catalogue-palm"),
      path: /^\/v1beta2\/models\/chat-bison-001:generateMessage$/,
    },
    34: {
      channel: { type: ChannelType.Cohere, key: "co-catalogue", base_url: up.cohere.url },
      upstreamModel: "command-r",
      endpoint: "chat",
      seen: byWho(up.cohere.received, "co-catalogue"),
      path: /^\/v2\/chat$/,
    },
    39: {
      channel: { type: ChannelType.Cloudflare, key: "cf-catalogue", base_url: up.cloudflare.url, other: "acc-catalogue" },
      upstreamModel: "@cf/meta/llama-3.1-8b-instruct",
      endpoint: "chat",
      seen: byWho(up.cloudflare.received, "cf-catalogue"),
      path: /^\/client\/v4\/accounts\/acc-catalogue\/ai\//,
    },
    15: {
      channel: { type: ChannelType.Baidu, key: "ak-catalogue|sk-catalogue", base_url: up.baidu.url },
      upstreamModel: "ERNIE-4.0-8K",
      endpoint: "chat",
      seen: () => up.baidu.received.filter((entry) => entry.who === "ak-catalogue" && entry.path !== "/oauth/2.0/token"),
      path: /^\/rpc\/2\.0\/ai_custom\/v1\/wenxinworkshop\/chat\/completions_pro$/,
    },
    46: {
      channel: { type: ChannelType.BaiduV2, key: "bce-v3/ALTAK-catalogue/secret", base_url: up.baidu.url },
      upstreamModel: "ernie-4.0-8k",
      endpoint: "chat",
      seen: byWho(up.baidu.received, "bce-v3/ALTAK-catalogue/secret"),
      path: /^\/v2\/chat\/completions$/,
    },
    17: {
      channel: { type: ChannelType.DashScope, key: "sk-ds-catalogue", base_url: up.dashscope.url },
      upstreamModel: "qwen-plus",
      endpoint: "chat",
      seen: byWho(up.dashscope.received, "sk-ds-catalogue"),
      path: /^\/api\/v1\/services\/aigc\/text-generation\/generation$/,
    },
    // No `other`: the version defaults to v2.1, and the model's own version (v3.5) wins over it.
    18: {
      channel: { type: ChannelType.Spark, key: "app-catalogue|secret-catalogue|key-catalogue", base_url: up.spark.url },
      upstreamModel: "SparkDesk-v3.5",
      endpoint: "chat",
      seen: () => up.spark.received.filter((entry) => entry.who === "app-catalogue" && entry.method === "FRAME"),
      path: /^\/v3\.5\/chat$/,
    },
    16: {
      channel: { type: ChannelType.Zhipu, key: "idcatalogue.secret-catalogue", base_url: up.zhipu.url },
      upstreamModel: "chatglm_turbo",
      endpoint: "chat",
      seen: byWho(up.zhipu.received, "idcatalogue"),
      path: /^\/api\/paas\/v3\/model-api\/chatglm_turbo\/(invoke|sse-invoke)$/,
    },
    26: {
      channel: { type: ChannelType.ZhipuV4, key: "idcatalogue.secret-catalogue", base_url: up.zhipu.url },
      upstreamModel: "glm-4-flash",
      endpoint: "chat",
      seen: byWho(up.zhipu.received, "idcatalogue"),
      path: /^\/api\/paas\/v4\/chat\/completions$/,
    },
    45: {
      channel: { type: ChannelType.Volcengine, key: "ark-catalogue", base_url: up.ark.url },
      upstreamModel: "ep-catalogue",
      endpoint: "chat",
      seen: byWho(up.ark.received, "ark-catalogue"),
      path: /^\/api\/v3\/chat\/completions$/,
    },
    23: {
      channel: { type: ChannelType.Hunyuan, key: "1250000000|AKIDcatalogue|secret-catalogue", base_url: up.hunyuan.url },
      upstreamModel: "hunyuan-lite",
      endpoint: "chat",
      seen: byWho(up.hunyuan.received, "AKIDcatalogue"),
      path: /^\/$/,
    },
    35: {
      channel: { type: ChannelType.MiniMax, key: "mm-catalogue", base_url: up.minimax.url },
      upstreamModel: "abab6.5s-chat",
      endpoint: "chat",
      seen: byWho(up.minimax.received, "mm-catalogue"),
      path: /^\/v1\/text\/chatcompletion_v2$/,
    },
    37: {
      channel: { type: ChannelType.Dify, key: "app-catalogue", base_url: up.dify.url },
      upstreamModel: "dify",
      endpoint: "chat",
      seen: byWho(up.dify.received, "app-catalogue"),
      path: /^\/v1\/chat-messages$/,
    },
    38: {
      channel: { type: ChannelType.Jina, key: "jina_catalogue", base_url: up.jina.url },
      upstreamModel: "jina-embeddings-v3",
      endpoint: "embeddings",
      seen: byWho(up.jina.received, "jina_catalogue"),
      path: /^\/v1\/embeddings$/,
    },
    22: {
      channel: { type: ChannelType.FastGPT, key: `fastgpt-catalogue-${fastgptApp}`, base_url: up.fastgpt.url },
      upstreamModel: "knowledge",
      endpoint: "chat",
      seen: byWho(up.fastgpt.received, "fastgpt-catalogue"),
      path: /^\/api\/v1\/chat\/completions$/,
    },
    21: {
      channel: { type: ChannelType.AIProxyLibrary, key: "aip-catalogue", base_url: up.library.url, other: "123456" },
      upstreamModel: "gpt-4o-mini",
      endpoint: "chat",
      seen: byWho(up.library.received, "aip-catalogue"),
      path: /^\/api\/library\/ask$/,
    },
    44: {
      channel: { type: ChannelType.MokaAI, key: "sk-m3e-catalogue", base_url: up.m3e.url },
      upstreamModel: "m3e-base",
      endpoint: "embeddings",
      seen: byWho(up.m3e.received, "sk-m3e-catalogue"),
      path: /^\/v1\/embeddings$/,
    },
  };
}

beforeAll(async () => {
  [world, up] = await Promise.all([startRelayWorld(), startImitations()]);
  key = (await addToken(world.root)).key;
  plans = await plansFor();
  const ratios = Object.fromEntries(relayKinds.map((kind) => [aliasOf(kind), 1]));
  await setOptions(world, { ModelRatio: JSON.stringify(ratios), RetryTimes: 0 });
});
afterAll(async () => {
  await world?.stop();
  await Promise.all(Object.values(up ?? {}).map((imitation) => imitation.stop()));
});

describe("the channel type catalogue", () => {
  test("every kind is served: by a relay adaptor, or (drawing and music) by the task relay", () => {
    const unserved = channelTypes
      .filter((info) => !taskKinds.has(info.type) && !hasAdaptor(info.type))
      .map((info) => `${info.type} ${info.name}`);
    expect(unserved).toEqual([]);
    expect([...taskKinds].filter((kind) => hasAdaptor(kind))).toEqual([]);
    expect([...taskKinds].every((kind) => channelTypeInfo(kind))).toBe(true);
    expect(relayKinds.filter((kind) => !plans[kind]).map((kind) => `${kind} has no imitation in this suite`)).toEqual([]);
  });

  test("the drawer asks for each composite key in the spec's format, and the keys used here follow it", () => {
    const formats: Record<number, string> = {
      15: "APIKey|SecretKey",
      18: "APPID|APISecret|APIKey",
      23: "AppId|SecretId|SecretKey",
      22: "APIKey-AppId",
      33: "Ak|Sk|Region",
    };
    for (const [kind, format] of Object.entries(formats)) {
      expect(channelTypeInfo(Number(kind))!.keyHint).toContain(format);
      const channelKey = plans[Number(kind)]!.channel.key;
      // FastGPT's API key has dashes of its own: the app id is what follows the last one.
      if (format.includes("|")) expect(channelKey.split("|")).toHaveLength(format.split("|").length);
      else expect(channelKey).toMatch(/^fastgpt-.+-[0-9a-f]{24}$/);
    }
  });

  describe.each(relayKinds.map((kind) => [kind, channelTypeInfo(kind)!.name] as const))("kind %d (%s)", (kind) => {
    let channelId: number;
    const plan = () => {
      const found = plans[kind];
      if (!found) throw new Error(`kind ${kind} has no imitation in this suite`);
      return found;
    };
    const lastLog = () =>
      one(world, "select * from logs where type = 2 and channel_id = ? and token_name <> '模型测试' order by id desc limit 1", channelId);

    test("created with the drawer's defaults, its channel test passes and reaches the imitation", async () => {
      const { channel, upstreamModel } = plan();
      const alias = aliasOf(kind);
      channelId = await addChannel(world, {
        name: `catalogue-${kind}`,
        ...channel,
        models: alias,
        model_mapping: JSON.stringify({ [alias]: upstreamModel }),
      });
      const defaults = channelTypeInfo(kind)!.other?.defaultValue;
      if (defaults !== undefined && channel.other === undefined)
        expect((await one(world, "select other from channels where id = ?", channelId)).other).toBe(defaults);
      const before = plan().seen().length;
      const tested = await world.root.get(`/api/channel/test/${channelId}`);
      expect(tested.body.success ? true : tested.body.message).toBe(true);
      const seen = plan().seen();
      expect(seen.length).toBeGreaterThan(before);
      expect(seen.at(-1)!.path).toMatch(plan().path);
    });

    test("the official openai client's calls reach the kind and are billed to its channel", async () => {
      const client = openai(world, key);
      const alias = aliasOf(kind);
      if (plan().endpoint === "embeddings") {
        const before = plan().seen().length;
        const result = await client.embeddings.create({ model: alias, input: ["目录", "catalogue"] });
        expect(result.data).toHaveLength(2);
        expect(result.data[0]!.embedding.length).toBeGreaterThan(0);
        expect(plan().seen().length).toBeGreaterThan(before);
        expect(plan().seen().at(-1)!.path).toMatch(plan().path);
        expect(n((await lastLog()).prompt_tokens)).toBeGreaterThan(0);
        return;
      }

      let before = plan().seen().length;
      const answer = await client.chat.completions.create({ model: alias, messages: [{ role: "user", content: "你好" }] });
      expect(answer.object).toBe("chat.completion");
      expect(answer.choices[0]!.message.content!.length).toBeGreaterThan(0);
      expect(plan().seen().length).toBeGreaterThan(before);
      expect(plan().seen().at(-1)!.path).toMatch(plan().path);
      const whole = await lastLog();
      expect([n(whole.is_stream), n(whole.quota) > 0]).toEqual([0, true]);

      before = plan().seen().length;
      const stream = await client.chat.completions.create({
        model: alias,
        messages: [{ role: "user", content: "你好" }],
        stream: true,
        stream_options: { include_usage: true },
      });
      let text = "";
      let usage: { total_tokens: number } | undefined;
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta?.content ?? "";
        if (chunk.usage) usage = chunk.usage;
      }
      expect(text.length).toBeGreaterThan(0);
      expect(usage!.total_tokens).toBeGreaterThan(0);
      expect(plan().seen().length).toBeGreaterThan(before);
      expect(plan().seen().at(-1)!.path).toMatch(plan().path);
      const streamed = await lastLog();
      expect(n(streamed.is_stream)).toBe(1);
      expect(n(streamed.prompt_tokens) + n(streamed.completion_tokens)).toBe(usage!.total_tokens);
    });
  });

  test("Midjourney Proxy (2), Midjourney Proxy Plus (5) and Suno (36) are served by the task relay", async () => {
    const submitted: Record<number, unknown> = {};
    for (const kind of [2, 5]) {
      const id = await addChannel(world, {
        name: `catalogue-${kind}`,
        type: kind,
        key: `mj-catalogue-${kind}`,
        base_url: up.midjourney.url,
        models: "mj_imagine",
      });
      // An admin's key pinned to the channel (sk-<key>-<id>) picks it among the two.
      const answer = await postRelay(world, "/mj/submit/imagine", `${key}-${id}`, { prompt: `catalogue ${kind}` });
      submitted[kind] = answer.json?.code;
      expect(
        up.midjourney.received.filter((entry) => entry.secret === `mj-catalogue-${kind}` && entry.path === "/mj/submit/imagine"),
      ).toHaveLength(1);
    }
    expect(submitted).toEqual({ 2: 1, 5: 1 });
    await addChannel(world, {
      name: "catalogue-36",
      type: ChannelType.Suno,
      key: "suno-catalogue",
      base_url: up.suno.url,
      models: "suno_music",
    });
    const song = await postRelay(world, "/suno/submit/music", key, { gpt_description_prompt: "a catalogue song", make_instrumental: true });
    expect(song.json).toMatchObject({ code: "success" });
    expect(up.suno.receivedAt("/suno/submit/music").map((entry) => entry.key)).toEqual(["suno-catalogue"]);
  });
});
