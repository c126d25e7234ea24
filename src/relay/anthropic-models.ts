// GET /v1/models and /v1/models/{id} for a client that speaks Anthropic's API (Claude Code, the
// Anthropic SDKs: they send anthropic-version and their key in x-api-key): the same models as the
// OpenAI list, in Anthropic's Models API shape, paged by limit / after_id / before_id.
//   list:  { data: [ModelInfo], has_more, first_id, last_id }
//   one:   ModelInfo = { type: "model", id, display_name, created_at, ... }
// The gateway knows no release date, capability or lifecycle of a model; those fields carry the
// values the reference gives for "unknown" (an epoch date, null) rather than guesses.
import { AppError } from "../errors/app-error.ts";

/** A call in Anthropic's dialect: its version header, or its key header without OpenAI's. */
export function speaksAnthropic(request: Request): boolean {
  return request.headers.has("anthropic-version") || (request.headers.has("x-api-key") && !request.headers.has("authorization"));
}

// The same creation time as the OpenAI list (new-api's), written as RFC 3339.
const createdAt = new Date(1626777600 * 1000).toISOString().replace(".000Z", "Z");

export function anthropicModelInfo(id: string) {
  return {
    type: "model" as const,
    id,
    display_name: id,
    created_at: createdAt,
    capabilities: null,
    deprecated_at: null,
    lifecycle: "active" as const,
    line: null,
    max_input_tokens: null,
    max_tokens: null,
    retires_at: null,
  };
}

const defaultLimit = 20;
const maxLimit = 1000;

function limitOf(raw: string | null): number {
  if (raw === null || raw === "") return defaultLimit;
  const limit = Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    throw new AppError("invalid", "limit 必须是 1 到 {{max}} 之间的整数", { max: maxLimit }, { code: "invalid_request_error" });
  }
  return limit;
}

/** One page of the models, as Anthropic pages its list (after_id, or before_id, then limit). */
export function anthropicModelPage(models: readonly string[], query: URLSearchParams) {
  const limit = limitOf(query.get("limit"));
  const afterId = query.get("after_id");
  const beforeId = query.get("before_id");
  let page: readonly string[];
  let hasMore: boolean;
  if (beforeId) {
    const end = Math.max(0, models.indexOf(beforeId));
    page = models.slice(Math.max(0, end - limit), end);
    hasMore = end - limit > 0;
  } else {
    const start = afterId ? models.indexOf(afterId) + 1 : 0;
    const from = afterId && start === 0 ? models.length : start;
    page = models.slice(from, from + limit);
    hasMore = from + limit < models.length;
  }
  return {
    data: page.map(anthropicModelInfo),
    has_more: hasMore,
    first_id: page[0] ?? null,
    last_id: page.at(-1) ?? null,
  };
}
