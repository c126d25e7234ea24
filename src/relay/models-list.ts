// /v1/models and /v1/models/{model}: the models the caller's token may use, in OpenAI's list
// format. With model limits on, the token's list; otherwise what the group's enabled channels
// serve. owned_by comes from the adaptor that lists the model, else "custom" (new-api).
import { channelIndex } from "./caches/channel-cache.ts";
import { modelsOfGroup } from "./channels/channel-index.ts";
import { allAdaptors } from "./providers/registry.ts";
import type { RelayCaller } from "./relay-context.ts";

const created = 1626777600;

let owners: Map<string, string> | undefined;
function ownerOf(model: string): string {
  if (!owners) {
    owners = new Map();
    for (const adaptor of allAdaptors()) for (const name of adaptor.defaultModels) if (!owners.has(name)) owners.set(name, adaptor.owner);
  }
  return owners.get(model) ?? "custom";
}

export function modelObject(id: string) {
  return {
    id,
    object: "model",
    created,
    owned_by: ownerOf(id),
    permission: [
      {
        id: "modelperm-LwHkVFn8AcMItP432fKKDIKJ",
        object: "model_permission",
        created,
        allow_create_engine: true,
        allow_sampling: true,
        allow_logprobs: true,
        allow_search_indices: false,
        allow_view: true,
        allow_fine_tuning: false,
        organization: "*",
        group: null,
        is_blocking: false,
      },
    ],
    root: id,
    parent: null,
  };
}

export async function modelsForCaller(caller: RelayCaller): Promise<string[]> {
  if (caller.modelLimits) return [...caller.modelLimits].sort();
  return modelsOfGroup(await channelIndex(), caller.group);
}
