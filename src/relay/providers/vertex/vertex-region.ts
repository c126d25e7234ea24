// Where a Vertex AI model is called: the channel's `other` names a region for every model
// ("us-central1"), or a JSON map from model to region with a `default` (spec template: default
// us-central1, one Claude model in europe-west1). The map is looked up by the model sent upstream,
// then by the model the client asked for. "global" is the global endpoint.
export const defaultRegion = "us-central1";

export function regionOf(other: string, models: string[]): string {
  const value = other.trim();
  if (value === "") return defaultRegion;
  if (!value.startsWith("{")) return value;
  try {
    const map = JSON.parse(value) as Record<string, unknown>;
    for (const model of [...models, "default"]) {
      const region = map[model];
      if (typeof region === "string" && region.trim() !== "") return region.trim();
    }
  } catch {
    // The channel form refuses a broken map; an old row falls back to the default region.
  }
  return defaultRegion;
}

/** The API host of a region (the global endpoint has no region prefix). */
export function hostOf(region: string): string {
  return region === "global" ? "https://aiplatform.googleapis.com" : `https://${region}-aiplatform.googleapis.com`;
}
