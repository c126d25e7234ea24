// Which DashScope models take images, kept as data with its sources (checked 2026-10): Alibaba
// Model Studio's "视觉理解" (Qwen-VL: qwen-vl-*, qwen2-vl-*, qwen2.5-vl-*, qwen3-vl-*; QVQ:
// qvq-*), "全模态" (Qwen-Omni: qwen-omni-*, qwen2.5-omni-*, qwen3-omni-*) and "Add visual
// understanding capabilities" (qwen3.5-plus understands images natively; qwen3-max, qwen-plus
// and the other text models do not). The vision-only families always answer on the multimodal
// endpoint; a model that also reads text alone (Qwen3.5) goes there when a call has images.
// Images sent to any other model are refused: DashScope's text endpoint would drop them silently.

/** Model families that answer only on the multimodal-generation endpoint. */
const visionFamilies = [/(^|-)vl(-|$)/i, /^qvq/i, /omni/i];
/** Models that read images and text alike (multimodal endpoint only when a call has images). */
const nativeVisionFamilies = [/^qwen3\.5-(plus|flash)/i];

/** The model answers only on the multimodal endpoint (Qwen-VL, QVQ, Qwen-Omni). */
export const isVisionModel = (model: string) => visionFamilies.some((family) => family.test(model));

/** The model accepts image input at all. */
export const acceptsImages = (model: string) => isVisionModel(model) || nativeVisionFamilies.some((family) => family.test(model));
