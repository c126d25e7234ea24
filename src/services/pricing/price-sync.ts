// Price sync: an operator refreshes the pricing options from a price document at a URL (the
// settings page, POST /api/pricing/sync, or `switchyard prices sync URL`). The URL goes through
// the outbound-address guard (no private addresses unless OUTBOUND_ALLOWED_HOSTS names them,
// https only, pinned to the checked address), the answer is read within a size and a time limit,
// and the document (price-documents.ts) is compared with the prices in force: the preview lists
// every model whose price would change, before and after; applying writes the changed options in
// one transaction, announced to every instance like any option change.
import { z } from "zod";
import { AppError, invalid } from "../../errors/app-error.ts";
import { fetchOutbound } from "../../http/outbound-url.ts";
import { currentPricingTables, pricingTableKeys, resolvePrice, type ModelPrice, type PricingTables } from "../billing/model-prices.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { updateOptions } from "../options/options.ts";
import { readPriceDocument, type PriceDocument } from "./price-documents.ts";

export const priceSyncInput = z.object({
  url: z.string().trim().min(1, "请输入价格文件的地址").max(2000),
  apply: z.boolean().default(false),
});

/** A price list is a few megabytes at most (new-api reads up to 10 MB). */
const maxDocumentBytes = 10 * 1024 * 1024;
const fetchTimeoutMs = 20_000;

export type PriceChange = { model: string; before: ModelPrice | null; after: ModelPrice | null };

export type PriceSyncResult = {
  url: string;
  format: PriceDocument["format"];
  sources: PriceDocument["sources"];
  /** Models the document prices. */
  models: number;
  changes: PriceChange[];
  unchanged: number;
  ignored: string[];
  applied: boolean;
};

async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  if (!response.body) return "";
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

const tooLarge = (limit: number) => invalid("价格文件超过 {{size}} MB，未读取", { size: Math.round(limit / 1024 / 1024) });

/** Fetches and reads the document at a URL the guard allows. */
async function fetchPriceDocument(url: string): Promise<PriceDocument> {
  let response: Response;
  try {
    response = await fetchOutbound(url, { method: "GET", headers: { accept: "application/json" }, timeoutMs: fetchTimeoutMs });
  } catch (error) {
    if (error instanceof AppError) {
      // The guard's refusal, with its reason: the operator may have meant an intranet host.
      const reason = error.cause instanceof Error ? error.cause.message : "";
      throw invalid("不允许访问该地址（{{reason}}）：只能是 https 的公网地址，内网地址须先列入 OUTBOUND_ALLOWED_HOSTS", { reason });
    }
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    throw invalid(timedOut ? "获取价格文件超时（{{seconds}} 秒）" : "无法获取价格文件：{{reason}}", {
      seconds: fetchTimeoutMs / 1000,
      reason: error instanceof Error ? error.message : String(error),
    });
  }
  if (response.status >= 300 && response.status < 400) throw invalid("价格文件的地址返回了重定向，请填写最终地址");
  if (!response.ok) throw invalid("价格文件的地址返回 HTTP {{status}}", { status: response.status });
  let text: string;
  try {
    text = await readLimited(response, maxDocumentBytes);
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw invalid("获取价格文件超时（{{seconds}} 秒）", { seconds: fetchTimeoutMs / 1000 });
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw invalid("价格文件不是合法的 JSON");
  }
  return readPriceDocument(body);
}

/** The pricing options as they would be with the document's entries in them. */
function mergedTables(current: PricingTables, document: PriceDocument): PricingTables {
  const next: PricingTables = {
    ModelPrice: { ...current.ModelPrice },
    ModelRatio: { ...current.ModelRatio },
    CompletionRatio: { ...current.CompletionRatio },
    CacheRatio: { ...current.CacheRatio },
    CreateCacheRatio: { ...current.CreateCacheRatio },
    ModelPriceTiers: { ...current.ModelPriceTiers },
  };
  for (const key of pricingTableKeys) Object.assign(next[key], document.tables[key]);
  // A model the document bills by tokens loses a per-call price the options gave it, as in the source.
  for (const name of Object.keys(document.tables.ModelRatio)) {
    if (!Object.hasOwn(document.tables.ModelPrice, name)) delete next.ModelPrice[name];
  }
  return next;
}

function documentModels(document: PriceDocument): string[] {
  const names = new Set<string>();
  for (const key of pricingTableKeys) for (const name of Object.keys(document.tables[key])) names.add(name);
  return [...names].sort();
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What the document would change: every model it prices, before and after, as billing resolves them. */
function previewPriceDocument(document: PriceDocument, url: string): { result: PriceSyncResult; next: PricingTables } {
  const current = currentPricingTables();
  const next = mergedTables(current, document);
  const changes: PriceChange[] = [];
  let unchanged = 0;
  for (const model of documentModels(document)) {
    const before = resolvePrice(model, current) ?? null;
    const after = resolvePrice(model, next) ?? null;
    if (same(before, after)) unchanged++;
    else changes.push({ model, before, after });
  }
  const result = {
    url,
    format: document.format,
    sources: document.sources,
    models: document.models,
    changes,
    unchanged,
    ignored: document.ignored,
    applied: false,
  };
  return { result, next };
}

/** Fetches, compares, and (when asked) applies: the changed options in one transaction. */
export async function syncPrices(input: z.infer<typeof priceSyncInput>, actor: AuditActor | null): Promise<PriceSyncResult> {
  const document = await fetchPriceDocument(input.url);
  const { result, next } = previewPriceDocument(document, input.url);
  if (!input.apply) return result;
  const current = currentPricingTables();
  const changed = pricingTableKeys.filter((key) => !same(current[key], next[key]));
  await updateOptions(
    [...changed.map((key) => ({ key, value: JSON.stringify(next[key]) })), { key: "PriceSyncUrl", value: input.url }],
    actor,
    "price.sync",
  );
  return { ...result, applied: true };
}

/**
 * Prices models from a price list sent directly (the unpriced-models view: dollars per million
 * tokens, or per call), merged into the pricing options exactly like a synced document.
 */
export async function setModelPrices(actor: AuditActor, body: unknown): Promise<PriceSyncResult> {
  const document = readPriceDocument(body);
  if (document.format !== "switchyard") throw invalid("请按 Switchyard 价格表的格式提交价格（models）");
  const { result, next } = previewPriceDocument(document, "");
  const current = currentPricingTables();
  const changed = pricingTableKeys.filter((key) => !same(current[key], next[key]));
  if (changed.length > 0)
    await updateOptions(
      changed.map((key) => ({ key, value: JSON.stringify(next[key]) })),
      actor,
      "price.set",
    );
  return { ...result, applied: true };
}
