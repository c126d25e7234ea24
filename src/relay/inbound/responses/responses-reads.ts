// GET /v1/responses/{id}, DELETE /v1/responses/{id} and GET /v1/responses/{id}/input_items over
// every channel kind (issue 24). A response the gateway answered is read from its store; one an
// OpenAI or Azure channel keeps is asked of that channel (its answer passed on as it came, its
// errors in OpenAI's shape with the channel's secrets scrubbed); an id the caller has none of is
// 404. Nothing is free to read across users: every lookup names the caller.
import { AppError } from "../../../errors/app-error.ts";
import {
  deleteStoredResponse,
  findStoredResponse,
  inputItemsPage,
  outputOf,
  type StoredResponse,
} from "../../../services/responses/stored-responses.ts";
import { channelIndex, currentChannelIndex } from "../../caches/channel-cache.ts";
import { UpstreamCallError, relayHeaders } from "../../pipeline/relay-errors.ts";
import type { RelayCaller } from "../../relay-context.ts";
import { targetWithCredential } from "../../upstream/credential-cache.ts";
import { sendUpstream } from "../../upstream/send-upstream.ts";
import { statusFailure } from "../../upstream/upstream-failure.ts";

/** How long a read of an upstream's kept response may take. */
const upstreamReadMs = 60_000;

const missing = (id: string) => new AppError("not_found", "未找到响应 {{id}}", { id }, { code: "not_found" });

function json(body: unknown, requestId: string, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...relayHeaders(requestId) },
  });
}

async function keptOrMissing(caller: RelayCaller, id: string): Promise<StoredResponse> {
  const kept = await findStoredResponse(caller.userId, id);
  if (!kept) throw missing(id);
  return kept;
}

/** Asks the channel that keeps the response; its 2xx answer goes to the client untouched. */
async function askUpstream(kept: StoredResponse, method: "GET" | "DELETE", path: string, requestId: string): Promise<Response> {
  const index = currentChannelIndex() ?? (await channelIndex());
  const channel = index.byId.get(kept.channelId);
  const adaptor = channel?.adaptor;
  if (!channel || !adaptor?.buildResponsesStateRequest) {
    throw new AppError(
      "unavailable",
      "保存该响应的渠道当前不可用（渠道 #{{channel}}）",
      { channel: String(kept.channelId) },
      { code: "channel_unavailable" },
    );
  }
  const target = await targetWithCredential(adaptor, channel.target);
  const response = await sendUpstream(
    adaptor,
    adaptor.buildResponsesStateRequest(target, method, path),
    target,
    AbortSignal.timeout(upstreamReadMs),
  );
  const text = await response.text();
  if (response.status < 200 || response.status >= 300) {
    throw new UpstreamCallError(statusFailure(response.status, response.status, adaptor.parseError(response.status, text), channel.target));
  }
  return new Response(text, {
    status: response.status,
    headers: { "content-type": response.headers.get("content-type") ?? "application/json", ...relayHeaders(requestId) },
  });
}

export async function readResponse(caller: RelayCaller, id: string, query: URLSearchParams, requestId: string): Promise<Response> {
  const kept = await keptOrMissing(caller, id);
  if (kept.channelId !== 0) return askUpstream(kept, "GET", `/${encodeURIComponent(id)}${query.size ? `?${query}` : ""}`, requestId);
  return json({ ...kept.envelope, output: await outputOf(id) }, requestId);
}

export async function deleteResponse(caller: RelayCaller, id: string, requestId: string): Promise<Response> {
  const kept = await keptOrMissing(caller, id);
  if (kept.channelId !== 0) {
    const answer = await askUpstream(kept, "DELETE", `/${encodeURIComponent(id)}`, requestId);
    await deleteStoredResponse(caller.userId, id);
    return answer;
  }
  await deleteStoredResponse(caller.userId, id);
  return json({ id, object: "response", deleted: true }, requestId);
}

function pageQuery(query: URLSearchParams): { after?: string; limit: number; order: "asc" | "desc" } {
  const limitText = query.get("limit");
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw new AppError("invalid", "字段 {{field}} 无效", { field: "limit" });
  const order = query.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") throw new AppError("invalid", "字段 {{field}} 无效", { field: "order" });
  const after = query.get("after") ?? undefined;
  return { ...(after ? { after } : {}), limit, order };
}

export async function listInputItems(caller: RelayCaller, id: string, query: URLSearchParams, requestId: string): Promise<Response> {
  const page = pageQuery(query);
  const kept = await keptOrMissing(caller, id);
  if (kept.channelId !== 0)
    return askUpstream(kept, "GET", `/${encodeURIComponent(id)}/input_items${query.size ? `?${query}` : ""}`, requestId);
  const { items, hasMore } = await inputItemsPage(id, page);
  return json(
    {
      object: "list",
      data: items,
      first_id: (items[0]?.id as string | undefined) ?? null,
      last_id: (items.at(-1)?.id as string | undefined) ?? null,
      has_more: hasMore,
    },
    requestId,
  );
}
