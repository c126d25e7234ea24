// Model names the console offers: the built-in lists of each channel type (GET /api/models)
// and every name known anywhere (GET /api/channel/models), for the channel form's picker.
import { configuredModelNames } from "./channel-queries.ts";
import { channelTypes } from "./channel-types.ts";

/** GET /api/models: channel type -> its well-known model names. */
export function builtInModelsByType(): Record<string, string[]> {
  return Object.fromEntries(channelTypes.map((info) => [String(info.type), info.models]));
}

/** Built-in names plus the ones configured on channels, sorted, each once. */
export async function knownModelNames(): Promise<string[]> {
  const names = new Set(channelTypes.flatMap((info) => info.models));
  for (const name of await configuredModelNames()) names.add(name);
  return [...names].sort();
}

/** The OpenAI model object new-api's console reads `id` from. */
export function toModelObject(id: string) {
  return { id, object: "model", created: 1626777600, owned_by: "custom" };
}
