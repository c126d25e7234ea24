// What a Gemini request takes from the operator rather than the client: the API version (the
// channel's `other`, else the GeminiVersionSettings option by model, else v1beta) and the safety
// thresholds (GeminiSafetySettings: a threshold per harm category, `default` for the rest; spec
// default BLOCK_NONE everywhere). Pure functions over the option values, so they are tested
// without a store (the adaptor reads the live options once per request).

export type GeminiSettings = {
  /** GeminiVersionSettings: model -> API version, with `default`. */
  versions: Record<string, string>;
  /** GeminiSafetySettings: harm category -> threshold, with `default`. */
  safety: Record<string, string>;
};

export type SafetySetting = { category: string; threshold: string };

/** The adjustable categories of the generateContent API (HarmCategory); more may be named in the option. */
const standardCategories = [
  "HARM_CATEGORY_HARASSMENT",
  "HARM_CATEGORY_HATE_SPEECH",
  "HARM_CATEGORY_SEXUALLY_EXPLICIT",
  "HARM_CATEGORY_DANGEROUS_CONTENT",
];

const defaultApiVersion = "v1beta";
const defaultThreshold = "BLOCK_NONE";

/** The model as the URL names it: "models/gemini-x" and "gemini-x" are the same model. */
export function bareModel(model: string): string {
  return model.replace(/^models\//, "");
}

/** The API version for a model: the channel's, else the option's entry for it, else its default. */
export function apiVersionOf(model: string, channelVersion: string, versions: Record<string, string>): string {
  const fromChannel = channelVersion.trim();
  if (/^v\d+(alpha|beta)?\d*$/.test(fromChannel)) return fromChannel;
  const named = versions[bareModel(model)] ?? versions.default;
  return typeof named === "string" && named.trim() !== "" ? named.trim() : defaultApiVersion;
}

/** One setting per category: the standard four plus any category the option names. */
export function safetySettingsOf(safety: Record<string, string>): SafetySetting[] {
  const categories = new Set(standardCategories);
  for (const key of Object.keys(safety)) if (key.startsWith("HARM_CATEGORY_")) categories.add(key);
  const fallback = typeof safety.default === "string" && safety.default ? safety.default : defaultThreshold;
  return [...categories].map((category) => ({ category, threshold: safety[category] || fallback }));
}
