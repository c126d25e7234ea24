// The price documents an operator may sync from: Switchyard's own price list (price-list.ts, the
// format of the built-in tables) and new-api's two ratio-sync shapes, which new-api reads from a
// ratio_sync upstream (/api/ratio_config and /api/pricing answers):
//   ratio_config: {"success": true, "data": {"model_ratio": {...}, "completion_ratio": {...},
//                  "cache_ratio": {...}, "create_cache_ratio": {...}, "model_price": {...}}}
//   pricing:      {"success": true, "data": [{"model_name", "quota_type" (0 ratio, 1 per call),
//                  "model_ratio", "model_price", "completion_ratio", "cache_ratio", ...}]}
// new-api's ratios are Switchyard's (one ratio = $2 per million prompt tokens at 500,000 quota a
// dollar), so they are taken as they are. Every document becomes the entries it sets in each
// pricing option; entries it does not give are left as they are. A document with any value that
// cannot be a price is refused whole, naming the first ones at fault (in the document's own
// terms: field paths and values, which read the same in either language).
import { invalid } from "../../errors/app-error.ts";
import { maxTiersPerModel } from "./price-tiers.ts";
import { blocksOf, emptyTables, addBlock, priceListSchema, type RatioTables } from "./price-list.ts";

export type PriceDocumentFormat = "switchyard" | "new-api-ratio-config" | "new-api-pricing";

export type PriceDocument = {
  format: PriceDocumentFormat;
  /** What the document says of itself (Switchyard's format): its sources and dates. */
  sources: { source?: string; as_of?: string }[];
  tables: RatioTables;
  /** Fields of the document that Switchyard does not price by (new-api's image or audio ratios). */
  ignored: string[];
  models: number;
};

/** The most models one document may price (new-api's own preset lists a few thousand). */
const maxDocumentModels = 20_000;

const newApiFields = {
  model_ratio: "ModelRatio",
  completion_ratio: "CompletionRatio",
  cache_ratio: "CacheRatio",
  create_cache_ratio: "CreateCacheRatio",
  model_price: "ModelPrice",
} as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const isPrice = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value) && value >= 0;
const validName = (name: string) => name.length > 0 && name.length <= 200;

function refuse(problems: string[]): never {
  throw invalid("价格文件有 {{count}} 处错误，未做任何更改：{{problems}}", {
    count: problems.length,
    problems: problems.slice(0, 5).join("; ") + (problems.length > 5 ? " …" : ""),
  });
}

function countModels(tables: RatioTables): number {
  const names = new Set<string>();
  for (const table of Object.values(tables)) for (const name of Object.keys(table)) names.add(name);
  return names.size;
}

function fromRatioConfig(data: Record<string, unknown>): PriceDocument {
  const tables = emptyTables();
  const problems: string[] = [];
  const ignored = Object.keys(data).filter((field) => !Object.hasOwn(newApiFields, field));
  for (const [field, key] of Object.entries(newApiFields)) {
    const values = data[field];
    if (values === undefined || values === null) continue;
    if (!isObject(values)) {
      problems.push(`${field}: not an object keyed by model name`);
      continue;
    }
    for (const [name, value] of Object.entries(values)) {
      if (!validName(name)) problems.push(`${field}: a model name is empty or longer than 200 characters`);
      else if (!isPrice(value)) problems.push(`${field}.${name} = ${JSON.stringify(value)} (not a number ≥ 0)`);
      else tables[key][name] = value;
    }
  }
  if (problems.length > 0) refuse(problems);
  return { format: "new-api-ratio-config", sources: [], tables, ignored, models: countModels(tables) };
}

function fromPricingList(items: unknown[]): PriceDocument {
  const tables = emptyTables();
  const problems: string[] = [];
  const ignored = new Set<string>();
  items.forEach((item, index) => {
    if (!isObject(item) || typeof item.model_name !== "string" || !validName(item.model_name)) {
      problems.push(`data[${index}]: no valid model_name`);
      return;
    }
    const name = item.model_name;
    for (const field of Object.keys(item)) {
      if (!Object.hasOwn(newApiFields, field) && !["model_name", "quota_type", "enable_groups", "owner_by"].includes(field))
        ignored.add(field);
    }
    const take = (field: keyof typeof newApiFields) => {
      const value = item[field];
      if (value === undefined || value === null) return;
      if (!isPrice(value)) problems.push(`${name}.${field} = ${JSON.stringify(value)} (not a number ≥ 0)`);
      else tables[newApiFields[field]][name] = value;
    };
    if (item.quota_type === 1) take("model_price");
    else if (item.quota_type === 0 || item.quota_type === undefined) {
      for (const field of ["model_ratio", "completion_ratio", "cache_ratio", "create_cache_ratio"] as const) take(field);
    } else problems.push(`${name}.quota_type = ${JSON.stringify(item.quota_type)} (0 or 1 only)`);
  });
  if (problems.length > 0) refuse(problems);
  return { format: "new-api-pricing", sources: [], tables, ignored: [...ignored].sort(), models: countModels(tables) };
}

function fromPriceList(body: unknown): PriceDocument {
  const parsed = priceListSchema.safeParse(body);
  if (!parsed.success) {
    refuse(parsed.error.issues.map((issue) => `${issue.path.join(".") || "(document)"}: ${issue.message}`));
  }
  const tables = emptyTables();
  const problems: string[] = [];
  for (const block of blocksOf(parsed.data)) {
    for (const [name, entry] of Object.entries(block.models)) {
      if (entry.tiers && entry.tiers.length > maxTiersPerModel) problems.push(`${name}: more than ${maxTiersPerModel} tiers`);
      if (entry.tiers && new Set(entry.tiers.map((tier) => tier.above)).size !== entry.tiers.length) {
        problems.push(`${name}: two tiers start at the same size`);
      }
    }
    try {
      addBlock(tables, block);
    } catch (error) {
      problems.push(error instanceof Error ? error.message : String(error));
    }
  }
  if (problems.length > 0) refuse(problems);
  const sources = blocksOf(parsed.data).map((block) => ({ source: block.source, as_of: block.as_of }));
  return { format: "switchyard", sources, tables, ignored: [], models: countModels(tables) };
}

/** Reads a fetched document in any of the three formats, or refuses it saying why. */
export function readPriceDocument(body: unknown): PriceDocument {
  if (!isObject(body)) throw invalid("价格文件必须是 JSON 对象");
  let document: PriceDocument;
  if ("success" in body) {
    if (body.success !== true) {
      throw invalid("价格来源返回失败：{{message}}", {
        message: typeof body.message === "string" && body.message ? body.message : "success=false",
      });
    }
    if (Array.isArray(body.data)) document = fromPricingList(body.data);
    else if (isObject(body.data) && Object.keys(newApiFields).some((field) => field in (body.data as object))) {
      document = fromRatioConfig(body.data);
    } else throw invalid("无法识别的价格文件：data 既不是倍率配置也不是定价列表");
  } else if ("models" in body || "blocks" in body) document = fromPriceList(body);
  else throw invalid("无法识别的价格文件：应为 Switchyard 价格表（models 或 blocks）或 new-api 的倍率同步格式（success 与 data）");
  if (document.models === 0) throw invalid("价格文件中没有任何模型价格");
  if (document.models > maxDocumentModels) throw invalid("价格文件中的模型超过 {{count}} 个", { count: maxDocumentModels });
  return document;
}
