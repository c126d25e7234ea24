// POST /api/option/rest_model_ratio: puts the model ratios back to the built-in table
// (services/pricing/default-ratios.ts), like new-api's "reset model ratios" button.
import { definitionOf } from "./option-registry.ts";
import type { AuditActor } from "../audit/audit-actor.ts";
import { setOptionsInternal } from "./options.ts";

export async function resetModelRatios(actor: AuditActor): Promise<void> {
  await setOptionsInternal([{ key: "ModelRatio", value: definitionOf("ModelRatio").default }], {
    actor,
    action: "price.reset_model_ratio",
  });
}
