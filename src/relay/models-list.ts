// /v1/models and /v1/models/{model}: the models the caller's token may use, in OpenAI's list
// format. With model limits on, the token's list; otherwise what the group's enabled channels
// serve. owned_by comes from the adaptor that lists the model, else "custom" (new-api).
import { channelIndex } from "./caches/channel-cache.ts";
import { modelsOfGroup } from "./channels/channel-index.ts";
import { allAdaptors, defaultModelsOf } from "./providers/registry.ts";
import type { RelayCaller } from "./relay-context.ts";

const created = 1626777600;

// Every adaptor's default models: the first list of models loads the adaptors not loaded yet.
let owners: Promise<Map<string, string>> | undefined;
function modelOwners(): Promise<Map<string, string>> {
  owners ??= allAdaptors().then((adaptors) => {
    const byModel = new Map<string, string>();
    for (const adaptor of adaptors) {
      for (const name of defaultModelsOf(adaptor.type)) if (!byModel.has(name)) byModel.set(name, adaptor.owner);
    }
    return byModel;
  });
  return owners;
}

/** The models in OpenAI's model object format. */
export async function modelObjects(ids: readonly string[]) {
  const byModel = await modelOwners();
  return ids.map((id) => modelObject(id, byModel.get(id) ?? "custom"));
}

function modelObject(id: string, owner: string) {
  return {
    id,
    object: "model",
    created,
    owned_by: owner,
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
