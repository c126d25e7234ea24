// GET /v1beta/models and /v1beta/models/{model}: the caller's models in Google's Model shape
// (name "models/<id>", the generation methods this gateway serves for it).
import type { GeminiModel, GeminiModelList } from "../../providers/gemini/gemini-wire.ts";

export function geminiModel(id: string): GeminiModel {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: "001",
    displayName: id,
    description: "",
    supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
  };
}

export function geminiModelList(ids: readonly string[]): GeminiModelList {
  return { models: ids.map(geminiModel) };
}
