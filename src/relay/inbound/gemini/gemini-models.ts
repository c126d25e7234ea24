// GET /v1beta/models and /v1beta/models/{model}: the caller's models in Google's Model shape
// (name "models/<id>", the generation methods this gateway serves for it).
export function geminiModel(id: string) {
  return {
    name: `models/${id}`,
    baseModelId: id,
    version: "001",
    displayName: id,
    description: "",
    supportedGenerationMethods: ["generateContent", "streamGenerateContent", "countTokens"],
  };
}

export function geminiModelList(ids: readonly string[]) {
  return { models: ids.map(geminiModel) };
}
