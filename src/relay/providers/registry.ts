// Every upstream kind the relay can reach: one line per adaptor, its kind and how to load it.
// Adding a provider is a new folder plus a line here; the pipeline never branches on a kind.
// Also the two calls the channel management needs from a kind: listing the upstream's models
// and reading its balance.
import { AppError } from "../../errors/app-error.ts";
import { nowSeconds } from "../../clock.ts";
import type { ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "./adaptor.ts";
import { openAIAdaptor } from "./openai/openai.ts";
import { channelTarget, type ChannelRowLike } from "../channels/channel-target.ts";
import { channelTypeInfo } from "../../services/channels/channel-types.ts";
import { scrubMessage } from "../upstream/upstream-failure.ts";
import { CredentialExchangeError, targetWithCredential } from "../upstream/credential-cache.ts";
import { sendOnce } from "../upstream/send-once.ts";

// Each kind's module is evaluated on its first use, not at start (docs/ARCHITECTURE.md,
// "Provider registry"): an executable starts without evaluating 30 adaptors it may never need.
// OpenAI's, which most channels use, is loaded with the registry. Kinds are in this order when
// all are listed (models-list.ts: the first adaptor that lists a model owns it).
const loaders = new Map<number, () => Promise<ProviderAdaptor>>([
  [1, async () => openAIAdaptor],
  [3, () => import("./azure/azure.ts").then((module) => module.azureAdaptor)],
  [8, () => import("./custom/custom.ts").then((module) => module.customAdaptor)],
  [4, () => import("./ollama/ollama.ts").then((module) => module.ollamaAdaptor)],
  [43, () => import("./deepseek/deepseek.ts").then((module) => module.deepSeekAdaptor)],
  [25, () => import("./moonshot/moonshot.ts").then((module) => module.moonshotAdaptor)],
  [42, () => import("./mistral/mistral.ts").then((module) => module.mistralAdaptor)],
  [40, () => import("./siliconcloud/siliconcloud.ts").then((module) => module.siliconCloudAdaptor)],
  [31, () => import("./zero-one/zero-one.ts").then((module) => module.zeroOneAdaptor)],
  [19, () => import("./ai360/ai360.ts").then((module) => module.ai360Adaptor)],
  [15, () => import("./baidu/baidu.ts").then((module) => module.baiduAdaptor)],
  [46, () => import("./baidu-v2/baidu-v2.ts").then((module) => module.baiduV2Adaptor)],
  [17, () => import("./dashscope/dashscope.ts").then((module) => module.dashScopeAdaptor)],
  [18, () => import("./spark/spark.ts").then((module) => module.sparkAdaptor)],
  [16, () => import("./zhipu/zhipu.ts").then((module) => module.zhipuAdaptor)],
  [26, () => import("./zhipu-v4/zhipu-v4.ts").then((module) => module.zhipuV4Adaptor)],
  [14, () => import("./claude/claude.ts").then((module) => module.claudeAdaptor)],
  [33, () => import("./bedrock/bedrock.ts").then((module) => module.bedrockAdaptor)],
  [45, () => import("./volcengine/volcengine.ts").then((module) => module.volcengineAdaptor)],
  [23, () => import("./hunyuan/hunyuan.ts").then((module) => module.hunyuanAdaptor)],
  [35, () => import("./minimax/minimax.ts").then((module) => module.minimaxAdaptor)],
  [37, () => import("./dify/dify.ts").then((module) => module.difyAdaptor)],
  [38, () => import("./jina/jina.ts").then((module) => module.jinaAdaptor)],
  [22, () => import("./fastgpt/fastgpt.ts").then((module) => module.fastgptAdaptor)],
  [44, () => import("./mokaai/mokaai.ts").then((module) => module.mokaAIAdaptor)],
  [34, () => import("./cohere/cohere.ts").then((module) => module.cohereAdaptor)],
  [21, () => import("./aiproxy-library/aiproxy-library.ts").then((module) => module.aiProxyLibraryAdaptor)],
  [39, () => import("./cloudflare/cloudflare.ts").then((module) => module.cloudflareAdaptor)],
  [24, () => import("./gemini/gemini.ts").then((module) => module.geminiAdaptor)],
  [11, () => import("./palm/palm.ts").then((module) => module.palmAdaptor)],
  [41, () => import("./vertex/vertex.ts").then((module) => module.vertexAdaptor)],
]);

const loaded = new Map<number, ProviderAdaptor>([[openAIAdaptor.kind, openAIAdaptor]]);

/** Whether this build can reach a channel type (known without loading its adaptor). */
export function hasAdaptor(kind: number): boolean {
  return loaders.has(kind);
}

/**
 * The adaptor of a channel type, loaded on first use and kept; undefined when this build cannot
 * reach that kind. The relay never waits for it per request: the channel index loads the
 * adaptors of its channels' kinds when it is built and keeps them in the channel snapshots.
 */
export async function loadAdaptor(kind: number): Promise<ProviderAdaptor | undefined> {
  const known = loaded.get(kind);
  if (known) return known;
  const load = loaders.get(kind);
  if (!load) return undefined;
  const adaptor = await load();
  if (adaptor.kind !== kind) throw new Error(`the registry lists kind ${kind} for the adaptor of kind ${adaptor.kind}`);
  loaded.set(kind, adaptor);
  return adaptor;
}

/** The adaptors of these kinds, loaded (kinds without one are left out). */
export async function loadAdaptors(kinds: Iterable<number>): Promise<Map<number, ProviderAdaptor>> {
  const adaptors = new Map<number, ProviderAdaptor>();
  for (const kind of new Set(kinds)) {
    const adaptor = await loadAdaptor(kind);
    if (adaptor) adaptors.set(kind, adaptor);
  }
  return adaptors;
}

/** Every adaptor, in the registry's order (loads those not loaded yet). */
export async function allAdaptors(): Promise<readonly ProviderAdaptor[]> {
  return [...(await loadAdaptors(loaders.keys())).values()];
}

async function requireAdaptor(kind: number): Promise<ProviderAdaptor> {
  const adaptor = await loadAdaptor(kind);
  if (!adaptor) throw new AppError("invalid", "不支持的渠道类型：{{type}}", { type: kind });
  return adaptor;
}

const managementTimeoutMs = 20_000;

async function readOk(adaptor: ProviderAdaptor, request: UpstreamRequest, target: UpstreamTarget): Promise<string> {
  const answer = await sendOnce(request, target, managementTimeoutMs, adaptor);
  if (answer.status < 200 || answer.status >= 300) {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: answer.failure ?? `HTTP ${answer.status}` });
  }
  return answer.text;
}

/** The target with the kind's exchanged credential; a refused exchange is the upstream's error. */
async function readyTarget(adaptor: ProviderAdaptor, target: UpstreamTarget): Promise<UpstreamTarget> {
  try {
    return await targetWithCredential(adaptor, target);
  } catch (error) {
    if (!(error instanceof CredentialExchangeError)) throw error;
    const message = error.status === 0 ? error.body : adaptor.parseError(error.status, error.body).message;
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: scrubMessage(message, target) });
  }
}

/** A paged list is followed this far at most (an upstream that never stops paging is cut off). */
const maxModelPages = 50;

/** The model ids the upstream lists (channel form "fetch models"), every page of them. */
export async function fetchUpstreamModels(channel: { type: number; baseUrl?: string; key: string; other?: string }): Promise<string[]> {
  const adaptor = await requireAdaptor(channel.type);
  // A key that is one JSON document (Vertex) is the whole key; others may list one per line.
  const key = channelTypeInfo(channel.type)?.jsonKey ? channel.key.trim() : channel.key.split("\n")[0]!.trim();
  const bare = channelTarget({ id: 0, type: channel.type, key, base_url: channel.baseUrl ?? "", other: channel.other ?? "" });
  const target = await readyTarget(adaptor, bare);
  let request = await adaptor.buildModelsRequest(target);
  if (!request) throw new AppError("invalid", "尚未实现");
  const models = new Set<string>();
  for (let page = 0; request && page < maxModelPages; page++) {
    const body = await readOk(adaptor, request, target);
    try {
      for (const model of adaptor.parseModels(body)) models.add(model);
      request = adaptor.nextModelsRequest ? await adaptor.nextModelsRequest(target, body) : null;
    } catch {
      throw new AppError("upstream", "上游返回错误：{{message}}", { message: "unreadable model list" });
    }
  }
  return [...models];
}

/** The channel's balance in the provider's currency; AppError "尚未实现" for kinds without one. */
export async function queryUpstreamBalance(channel: ChannelRowLike): Promise<number> {
  const adaptor = await requireAdaptor(channel.type);
  if (!adaptor.buildBalanceRequests || !adaptor.parseBalance) throw new AppError("invalid", "尚未实现");
  const target = await readyTarget(adaptor, channelTarget(channel));
  const bodies: string[] = [];
  for (const request of await adaptor.buildBalanceRequests(target, nowSeconds())) bodies.push(await readOk(adaptor, request, target));
  try {
    return adaptor.parseBalance(bodies);
  } catch (error) {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: error instanceof Error ? error.message : "unreadable balance" });
  }
}
