// Claude model names as Bedrock model ids. Newer models are served only through cross-region
// inference profiles: the id gets the geography of the channel's region as a prefix (us., eu.,
// apac., us-gov.), as AWS names its system-defined profiles. A name that already is a Bedrock
// id or an ARN (set by the channel's model mapping) goes as it is; so does an unknown name, and
// Bedrock's answer says what it lacks.

type BedrockModel = { id: string; profileOnly?: boolean };

const models: Record<string, BedrockModel> = {
  "claude-instant-1.2": { id: "anthropic.claude-instant-v1" },
  "claude-2.0": { id: "anthropic.claude-v2" },
  "claude-2.1": { id: "anthropic.claude-v2:1" },
  "claude-3-haiku-20240307": { id: "anthropic.claude-3-haiku-20240307-v1:0" },
  "claude-3-sonnet-20240229": { id: "anthropic.claude-3-sonnet-20240229-v1:0" },
  "claude-3-opus-20240229": { id: "anthropic.claude-3-opus-20240229-v1:0" },
  "claude-3-5-sonnet-20240620": { id: "anthropic.claude-3-5-sonnet-20240620-v1:0" },
  "claude-3-5-sonnet-20241022": { id: "anthropic.claude-3-5-sonnet-20241022-v2:0" },
  "claude-3-5-haiku-20241022": { id: "anthropic.claude-3-5-haiku-20241022-v1:0" },
  "claude-3-7-sonnet-20250219": { id: "anthropic.claude-3-7-sonnet-20250219-v1:0", profileOnly: true },
  "claude-sonnet-4-20250514": { id: "anthropic.claude-sonnet-4-20250514-v1:0", profileOnly: true },
  "claude-opus-4-20250514": { id: "anthropic.claude-opus-4-20250514-v1:0", profileOnly: true },
  "claude-opus-4-1-20250805": { id: "anthropic.claude-opus-4-1-20250805-v1:0", profileOnly: true },
  "claude-sonnet-4-5-20250929": { id: "anthropic.claude-sonnet-4-5-20250929-v1:0", profileOnly: true },
  "claude-haiku-4-5-20251001": { id: "anthropic.claude-haiku-4-5-20251001-v1:0", profileOnly: true },
  "claude-opus-4-5-20251101": { id: "anthropic.claude-opus-4-5-20251101-v1:0", profileOnly: true },
};

/** The inference-profile prefix of a region's geography, or "" where AWS defines none. */
export function profilePrefix(region: string): string {
  if (region.startsWith("us-gov-")) return "us-gov.";
  if (region.startsWith("us-") || region.startsWith("ca-")) return "us.";
  if (region.startsWith("eu-")) return "eu.";
  if (region.startsWith("ap-")) return "apac.";
  return "";
}

/** Whether a name already is a Bedrock model id, inference profile id or ARN. */
const isBedrockId = (model: string) => model.startsWith("arn:") || /^([a-z-]+\.)?anthropic\./.test(model);

export function bedrockModelId(model: string, region: string): string {
  if (isBedrockId(model)) return model;
  const known = models[model];
  if (!known) return model;
  return known.profileOnly ? profilePrefix(region) + known.id : known.id;
}

/** A Bedrock model id back as the Claude name the gateway lists ("fetch models"). */
export function claudeNameOf(modelId: string): string {
  for (const [name, model] of Object.entries(models)) if (model.id === modelId) return name;
  return modelId.replace(/^anthropic\./, "").replace(/-v\d+(:\d+)?$/, "");
}
