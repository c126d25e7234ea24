// Every upstream kind the relay can reach: one line per adaptor. Adding a provider is a new
// folder plus a line here; the pipeline never branches on a kind. Also the two calls the channel
// management needs from a kind: listing the upstream's models and reading its balance.
import { AppError } from "../../errors/app-error.ts";
import { nowSeconds } from "../../clock.ts";
import type { ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "./adaptor.ts";
import { ai360Adaptor } from "./ai360/ai360.ts";
import { azureAdaptor } from "./azure/azure.ts";
import { customAdaptor } from "./custom/custom.ts";
import { deepSeekAdaptor } from "./deepseek/deepseek.ts";
import { mistralAdaptor } from "./mistral/mistral.ts";
import { moonshotAdaptor } from "./moonshot/moonshot.ts";
import { ollamaAdaptor } from "./ollama/ollama.ts";
import { openAIAdaptor } from "./openai/openai.ts";
import { siliconCloudAdaptor } from "./siliconcloud/siliconcloud.ts";
import { zeroOneAdaptor } from "./zero-one/zero-one.ts";
import { channelTarget, type ChannelRowLike } from "../channels/channel-target.ts";
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

async function readOk(request: UpstreamRequest, target: UpstreamTarget): Promise<string> {
  const answer = await sendOnce(request, target, managementTimeoutMs);
  if (answer.status < 200 || answer.status >= 300) {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: answer.failure ?? `HTTP ${answer.status}` });
  }
  return answer.text;
}

/** The model ids the upstream lists (channel form "fetch models"). */
export async function fetchUpstreamModels(channel: { type: number; baseUrl?: string; key: string; other?: string }): Promise<string[]> {
  const adaptor = requireAdaptor(channel.type);
  const target = channelTarget({ id: 0, type: channel.type, key: channel.key.split("\n")[0]!.trim(), base_url: channel.baseUrl ?? "", other: channel.other ?? "" });
  const request = adaptor.buildModelsRequest(target);
  if (!request) throw new AppError("invalid", "尚未实现");
  const body = await readOk(request, target);
  try {
    return [...new Set(adaptor.parseModels(body))];
  } catch {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: "unreadable model list" });
  }
}

/** The channel's balance in the provider's currency; AppError "尚未实现" for kinds without one. */
export async function queryUpstreamBalance(channel: ChannelRowLike): Promise<number> {
  const adaptor = requireAdaptor(channel.type);
  if (!adaptor.buildBalanceRequests || !adaptor.parseBalance) throw new AppError("invalid", "尚未实现");
  const target = channelTarget(channel);
  const bodies: string[] = [];
  for (const request of adaptor.buildBalanceRequests(target, nowSeconds())) bodies.push(await readOk(request, target));
  try {
    return adaptor.parseBalance(bodies);
  } catch (error) {
    throw new AppError("upstream", "上游返回错误：{{message}}", { message: error instanceof Error ? error.message : "unreadable balance" });
  }
}
