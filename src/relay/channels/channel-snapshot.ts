// A channel as the relay keeps it in memory: the row's routing fields parsed once (model and
// group lists, mappings, setting) so a request does no parsing, plus its adaptor and target.
import type { Tables } from "../../store/schema/define-schema.ts";
import type { ProviderAdaptor, UpstreamTarget } from "../providers/adaptor.ts";
import { channelTarget } from "./channel-target.ts";
import { keyPoolOf, type KeyPool } from "./key-pool.ts";

export type ChannelRow = Tables["channels"]["$inferSelect"];

export const ChannelStatus = { enabled: 1, manuallyDisabled: 2, autoDisabled: 3 } as const;

export type ChannelSnapshot = {
  id: number;
  name: string;
  type: number;
  status: number;
  priority: number;
  weight: number;
  autoBan: boolean;
  groups: string[];
  models: string[];
  testModel: string;
  target: UpstreamTarget;
  /** client model -> upstream model; null when the stored JSON is broken. */
  modelMapping: Record<string, string> | null;
  /** upstream status -> status the rules and the client see. */
  statusCodeMapping: Map<number, number>;
  adaptor: ProviderAdaptor | undefined;
  /** A multi-key channel's enabled keys and how one is chosen (undefined: one key, `target.key`). */
  keyPool?: KeyPool;
};

/** A comma-separated list from a channel or token field: trimmed, without blanks or repeats. */
export function splitList(text: string | null | undefined): string[] {
  if (!text) return [];
  return [
    ...new Set(
      text
        .split(",")
        .map((item) => item.trim())
        .filter((item) => item !== ""),
    ),
  ];
}

function parseModelMapping(text: string | null | undefined): Record<string, string> | null {
  if (!text || text.trim() === "" || text.trim() === "{}") return {};
  try {
    const parsed = JSON.parse(text) as unknown;
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return null;
    const mapping: Record<string, string> = {};
    for (const [from, to] of Object.entries(parsed)) {
      // Empty targets are ignored, as in new-api.
      if (typeof to === "string" && to.trim() !== "") mapping[from] = to.trim();
    }
    return mapping;
  } catch {
    return null;
  }
}

function parseStatusCodeMapping(text: string | null | undefined): Map<number, number> {
  const mapping = new Map<number, number>();
  if (!text || text.trim() === "") return mapping;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    for (const [from, to] of Object.entries(parsed ?? {})) {
      const source = Number(from);
      const target = Number(to);
      if (Number.isInteger(source) && Number.isInteger(target) && target >= 100 && target <= 599) mapping.set(source, target);
    }
  } catch {
    // A broken mapping maps nothing; the channel form refuses invalid JSON in the first place.
  }
  return mapping;
}

/** `adaptor`: the type's, loaded (providers/registry.ts loadAdaptor); undefined when there is none. */
export function toChannelSnapshot(row: ChannelRow, adaptor: ProviderAdaptor | undefined): ChannelSnapshot {
  const models = splitList(row.models);
  const target = channelTarget(row);
  const keyPool = keyPoolOf(row, target);
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    status: row.status,
    priority: Number(row.priority),
    weight: Math.max(0, row.weight),
    autoBan: row.auto_ban === 1,
    groups: splitList(row.group),
    models,
    testModel: (row.test_model ?? "").trim(),
    target,
    modelMapping: parseModelMapping(row.model_mapping),
    statusCodeMapping: parseStatusCodeMapping(row.status_code_mapping),
    adaptor,
    ...(keyPool ? { keyPool } : {}),
  };
}
