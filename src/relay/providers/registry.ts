// Every upstream kind the relay can reach: one line per adaptor. Adding a provider is a new
// folder plus a line here; the pipeline never branches on a kind. Also the two calls the channel
// management needs from a kind: listing the upstream's models and reading its balance.
import { AppError } from "../../errors/app-error.ts";
import { nowSeconds } from "../../clock.ts";
import type { ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "./adaptor.ts";
import { ai360Adaptor } from "./ai360/ai360.ts";
import { aiProxyLibraryAdaptor } from "./aiproxy-library/aiproxy-library.ts";
import { azureAdaptor } from "./azure/azure.ts";
import { baiduAdaptor } from "./baidu/baidu.ts";
import { baiduV2Adaptor } from "./baidu-v2/baidu-v2.ts";
import { bedrockAdaptor } from "./bedrock/bedrock.ts";
import { claudeAdaptor } from "./claude/claude.ts";
import { customAdaptor } from "./custom/custom.ts";
import { dashScopeAdaptor } from "./dashscope/dashscope.ts";
import { deepSeekAdaptor } from "./deepseek/deepseek.ts";
import { geminiAdaptor } from "./gemini/gemini.ts";
import { mistralAdaptor } from "./mistral/mistral.ts";
import { moonshotAdaptor } from "./moonshot/moonshot.ts";
import { ollamaAdaptor } from "./ollama/ollama.ts";
import { openAIAdaptor } from "./openai/openai.ts";
import { palmAdaptor } from "./palm/palm.ts";
import { siliconCloudAdaptor } from "./siliconcloud/siliconcloud.ts";
import { sparkAdaptor } from "./spark/spark.ts";
import { vertexAdaptor } from "./vertex/vertex.ts";
import { zeroOneAdaptor } from "./zero-one/zero-one.ts";
import { zhipuAdaptor } from "./zhipu/zhipu.ts";
import { zhipuV4Adaptor } from "./zhipu-v4/zhipu-v4.ts";
import { cloudflareAdaptor } from "./cloudflare/cloudflare.ts";
import { cohereAdaptor } from "./cohere/cohere.ts";
import { difyAdaptor } from "./dify/dify.ts";
import { fastgptAdaptor } from "./fastgpt/fastgpt.ts";
import { hunyuanAdaptor } from "./hunyuan/hunyuan.ts";
import { jinaAdaptor } from "./jina/jina.ts";
import { minimaxAdaptor } from "./minimax/minimax.ts";
import { mokaAIAdaptor } from "./mokaai/mokaai.ts";
import { volcengineAdaptor } from "./volcengine/volcengine.ts";
import { channelTarget, type ChannelRowLike } from "../channels/channel-target.ts";
import { channelTypeInfo } from "../../services/channels/channel-types.ts";
import { scrubMessage } from "../upstream/upstream-failure.ts";
import { CredentialExchangeError, targetWithCredential } from "../upstream/credential-cache.ts";
import { sendOnce } from "../upstream/send-once.ts";

const adaptors: ProviderAdaptor[] = [
  openAIAdaptor,
  azureAdaptor,
  customAdaptor,
  ollamaAdaptor,
  deepSeekAdaptor,
  moonshotAdaptor,
  mistralAdaptor,
  siliconCloudAdaptor,
  zeroOneAdaptor,
  ai360Adaptor,
  baiduAdaptor,
  baiduV2Adaptor,
  dashScopeAdaptor,
  sparkAdaptor,
  zhipuAdaptor,
  zhipuV4Adaptor,
  claudeAdaptor,
  bedrockAdaptor,
  volcengineAdaptor,
  hunyuanAdaptor,
  minimaxAdaptor,
  difyAdaptor,
  jinaAdaptor,
  fastgptAdaptor,
  mokaAIAdaptor,
  cohereAdaptor,
  aiProxyLibraryAdaptor,
  cloudflareAdaptor,
  geminiAdaptor,
  palmAdaptor,
  vertexAdaptor,
];

const byKind = new Map(adaptors.map((adaptor) => [adaptor.kind, adaptor]));

/** The adaptor of a channel type, or undefined when this build cannot reach that kind. */
export function adaptorFor(kind: number): ProviderAdaptor | undefined {
  return byKind.get(kind);
}

export function allAdaptors(): readonly ProviderAdaptor[] {
  return adaptors;
}

function requireAdaptor(kind: number): ProviderAdaptor {
  const adaptor = byKind.get(kind);
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
  const adaptor = requireAdaptor(channel.type);
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
  const adaptor = requireAdaptor(channel.type);
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
