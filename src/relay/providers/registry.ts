// Every channel type the relay reaches through a provider adaptor: one line per adaptor, its type
// and how to load it, and each type's default models from the channel type table. Adding a
// provider is a new folder, a line here and `relayedBy: "adaptor"` on its table entry; the
// pipeline never branches on a type. (What channel management asks of a type, its model list
// and balance, is relay/channels/channel-upstream.ts.)
import { ChannelType, channelTypeInfo } from "../../services/channels/channel-types.ts";
import type { ProviderAdaptor } from "./adaptor.ts";
import { openAIAdaptor } from "./openai/openai.ts";

// Each type's module is evaluated on its first use, not at start: an executable starts without
// evaluating 30 adaptors it may never need (docs/ARCHITECTURE.md, "Relay lifecycle", **Providers**).
// OpenAI's, which most channels use, is loaded with the registry. Types are in this order when
// all are listed (models-list.ts: the first adaptor that lists a model owns it).
const loaders = new Map<number, () => Promise<ProviderAdaptor>>([
  [ChannelType.OpenAI, async () => openAIAdaptor],
  [ChannelType.Azure, () => import("./azure/azure.ts").then((module) => module.azureAdaptor)],
  [ChannelType.Custom, () => import("./custom/custom.ts").then((module) => module.customAdaptor)],
  [ChannelType.Ollama, () => import("./ollama/ollama.ts").then((module) => module.ollamaAdaptor)],
  [ChannelType.DeepSeek, () => import("./deepseek/deepseek.ts").then((module) => module.deepSeekAdaptor)],
  [ChannelType.Moonshot, () => import("./moonshot/moonshot.ts").then((module) => module.moonshotAdaptor)],
  [ChannelType.Mistral, () => import("./mistral/mistral.ts").then((module) => module.mistralAdaptor)],
  [ChannelType.SiliconCloud, () => import("./siliconcloud/siliconcloud.ts").then((module) => module.siliconCloudAdaptor)],
  [ChannelType.ZeroOne, () => import("./zero-one/zero-one.ts").then((module) => module.zeroOneAdaptor)],
  [ChannelType.AI360, () => import("./ai360/ai360.ts").then((module) => module.ai360Adaptor)],
  [ChannelType.Baidu, () => import("./baidu/baidu.ts").then((module) => module.baiduAdaptor)],
  [ChannelType.BaiduV2, () => import("./baidu-v2/baidu-v2.ts").then((module) => module.baiduV2Adaptor)],
  [ChannelType.DashScope, () => import("./dashscope/dashscope.ts").then((module) => module.dashScopeAdaptor)],
  [ChannelType.Spark, () => import("./spark/spark.ts").then((module) => module.sparkAdaptor)],
  [ChannelType.Zhipu, () => import("./zhipu/zhipu.ts").then((module) => module.zhipuAdaptor)],
  [ChannelType.ZhipuV4, () => import("./zhipu-v4/zhipu-v4.ts").then((module) => module.zhipuV4Adaptor)],
  [ChannelType.Claude, () => import("./claude/claude.ts").then((module) => module.claudeAdaptor)],
  [ChannelType.Bedrock, () => import("./bedrock/bedrock.ts").then((module) => module.bedrockAdaptor)],
  [ChannelType.Volcengine, () => import("./volcengine/volcengine.ts").then((module) => module.volcengineAdaptor)],
  [ChannelType.Hunyuan, () => import("./hunyuan/hunyuan.ts").then((module) => module.hunyuanAdaptor)],
  [ChannelType.MiniMax, () => import("./minimax/minimax.ts").then((module) => module.minimaxAdaptor)],
  [ChannelType.Dify, () => import("./dify/dify.ts").then((module) => module.difyAdaptor)],
  [ChannelType.Jina, () => import("./jina/jina.ts").then((module) => module.jinaAdaptor)],
  [ChannelType.FastGPT, () => import("./fastgpt/fastgpt.ts").then((module) => module.fastgptAdaptor)],
  [ChannelType.MokaAI, () => import("./mokaai/mokaai.ts").then((module) => module.mokaAIAdaptor)],
  [ChannelType.Cohere, () => import("./cohere/cohere.ts").then((module) => module.cohereAdaptor)],
  [ChannelType.AIProxyLibrary, () => import("./aiproxy-library/aiproxy-library.ts").then((module) => module.aiProxyLibraryAdaptor)],
  [ChannelType.Cloudflare, () => import("./cloudflare/cloudflare.ts").then((module) => module.cloudflareAdaptor)],
  [ChannelType.Gemini, () => import("./gemini/gemini.ts").then((module) => module.geminiAdaptor)],
  [ChannelType.PaLM, () => import("./palm/palm.ts").then((module) => module.palmAdaptor)],
  [ChannelType.Vertex, () => import("./vertex/vertex.ts").then((module) => module.vertexAdaptor)],
]);

const loaded = new Map<number, ProviderAdaptor>([[openAIAdaptor.type, openAIAdaptor]]);

/** Whether this build can reach a channel type through an adaptor (known without loading it). */
export function hasAdaptor(type: number): boolean {
  return loaders.has(type);
}

/** The models a type is known to serve (channel forms, /api/models, owned_by in /v1/models). */
export function defaultModelsOf(type: number): readonly string[] {
  return channelTypeInfo(type)?.models ?? [];
}

/**
 * The adaptor of a channel type, loaded on first use and kept; undefined when this build cannot
 * reach that type. The relay never waits for it per request: the channel index loads the
 * adaptors of its channels' types when it is built and keeps them in the channel snapshots.
 */
export async function loadAdaptor(type: number): Promise<ProviderAdaptor | undefined> {
  const known = loaded.get(type);
  if (known) return known;
  const load = loaders.get(type);
  if (!load) return undefined;
  const adaptor = await load();
  if (adaptor.type !== type) throw new Error(`the registry lists type ${type} for the adaptor of type ${adaptor.type}`);
  loaded.set(type, adaptor);
  return adaptor;
}

/** The adaptors of these types, loaded (types without one are left out). */
export async function loadAdaptors(types: Iterable<number>): Promise<Map<number, ProviderAdaptor>> {
  const adaptors = new Map<number, ProviderAdaptor>();
  for (const type of new Set(types)) {
    const adaptor = await loadAdaptor(type);
    if (adaptor) adaptors.set(type, adaptor);
  }
  return adaptors;
}

/** Every adaptor, in the registry's order (loads those not loaded yet). */
export async function allAdaptors(): Promise<readonly ProviderAdaptor[]> {
  return [...(await loadAdaptors(loaders.keys())).values()];
}
