// Claude model names as Bedrock model ids, kept as data with the date it was checked. Newer
// models are served only through cross-Region (system-defined) inference profiles, whose ids are
// the model id behind a geography prefix: us., eu., apac., jp. (Tokyo, Osaka), au. (Sydney,
// Melbourne), us-gov. and global. (all commercial Regions). Which geographies a model has differs
// by model (the older ones have apac. only in Asia Pacific, the 4.5 generation on has jp., au. and
// global.), so a call uses the first of its Region's geographies that the model has. A name that
// already is a Bedrock id or an ARN (set by the channel's model mapping) goes as it is; so does an
// unknown name, and Bedrock's answer says what it lacks.
//
// Checked 2026-10 against AWS's documentation: "Supported Regions and models for inference
// profiles" (docs.aws.amazon.com/bedrock/latest/userguide/inference-profiles-support.html), the
// model cards it points to (…/model-card-anthropic-claude-<model>.html, "Programmatic access":
// model id, geo and global inference ids), and Anthropic's model overview (AWS Bedrock ID row,
// platform.claude.com/docs/about-claude/models).

type Geography = "us" | "eu" | "apac" | "jp" | "au" | "us-gov" | "global";

type BedrockModel = {
  id: string;
  /** Served only through an inference profile (no on-demand throughput for the bare id). */
  profileOnly?: boolean;
  /** The geographies with a system-defined inference profile for the model. */
  geographies: readonly Geography[];
};

const classic: Geography[] = ["us", "eu", "apac"];
const current: Geography[] = ["us", "eu", "jp", "au", "global"];

const models: Record<string, BedrockModel> = {
  "claude-instant-1.2": { id: "anthropic.claude-instant-v1", geographies: [] },
  "claude-2.0": { id: "anthropic.claude-v2", geographies: [] },
  "claude-2.1": { id: "anthropic.claude-v2:1", geographies: [] },
  "claude-3-haiku-20240307": { id: "anthropic.claude-3-haiku-20240307-v1:0", geographies: [...classic, "us-gov"] },
  "claude-3-sonnet-20240229": { id: "anthropic.claude-3-sonnet-20240229-v1:0", geographies: classic },
  "claude-3-opus-20240229": { id: "anthropic.claude-3-opus-20240229-v1:0", geographies: ["us"] },
  "claude-3-5-sonnet-20240620": { id: "anthropic.claude-3-5-sonnet-20240620-v1:0", geographies: [...classic, "us-gov"] },
  "claude-3-5-sonnet-20241022": { id: "anthropic.claude-3-5-sonnet-20241022-v2:0", geographies: ["us", "apac"] },
  "claude-3-5-haiku-20241022": { id: "anthropic.claude-3-5-haiku-20241022-v1:0", geographies: ["us"] },
  "claude-3-7-sonnet-20250219": { id: "anthropic.claude-3-7-sonnet-20250219-v1:0", profileOnly: true, geographies: [...classic, "us-gov"] },
  "claude-sonnet-4-20250514": { id: "anthropic.claude-sonnet-4-20250514-v1:0", profileOnly: true, geographies: [...classic, "global"] },
  "claude-opus-4-20250514": { id: "anthropic.claude-opus-4-20250514-v1:0", profileOnly: true, geographies: ["us"] },
  "claude-opus-4-1-20250805": { id: "anthropic.claude-opus-4-1-20250805-v1:0", profileOnly: true, geographies: ["us"] },
  "claude-sonnet-4-5-20250929": { id: "anthropic.claude-sonnet-4-5-20250929-v1:0", profileOnly: true, geographies: [...current, "us-gov"] },
  "claude-haiku-4-5-20251001": { id: "anthropic.claude-haiku-4-5-20251001-v1:0", profileOnly: true, geographies: current },
  "claude-opus-4-5-20251101": { id: "anthropic.claude-opus-4-5-20251101-v1:0", profileOnly: true, geographies: ["us", "eu", "global"] },
  // From Opus 4.6 on, Anthropic's names carry no date and Bedrock's ids no ":0" version.
  "claude-opus-4-6": { id: "anthropic.claude-opus-4-6-v1", profileOnly: true, geographies: ["us", "eu", "au", "global"] },
  "claude-sonnet-4-6": { id: "anthropic.claude-sonnet-4-6", profileOnly: true, geographies: current },
  "claude-opus-4-7": { id: "anthropic.claude-opus-4-7", profileOnly: true, geographies: ["us", "eu", "au", "global"] },
};

/** Anthropic's aliases of dated models (claude-sonnet-4-5 = claude-sonnet-4-5-20250929). */
const aliases: Record<string, string> = {
  "claude-sonnet-4-0": "claude-sonnet-4-20250514",
  "claude-opus-4-0": "claude-opus-4-20250514",
  "claude-opus-4-1": "claude-opus-4-1-20250805",
  "claude-sonnet-4-5": "claude-sonnet-4-5-20250929",
  "claude-haiku-4-5": "claude-haiku-4-5-20251001",
  "claude-opus-4-5": "claude-opus-4-5-20251101",
};

/**
 * The geographies whose inference profiles a Region may call, preferred first (AWS's source
 * Regions: Tokyo and Osaka call jp. profiles, Sydney and Melbourne au., the rest of Asia Pacific
 * apac.; global. from any commercial Region).
 */
function geographiesOf(region: string): Geography[] {
  if (region.startsWith("us-gov-")) return ["us-gov"];
  if (region.startsWith("us-") || region.startsWith("ca-")) return ["us", "global"];
  if (region.startsWith("eu-")) return ["eu", "global"];
  if (region === "ap-northeast-1" || region === "ap-northeast-3") return ["jp", "apac", "global"];
  if (region === "ap-southeast-2" || region === "ap-southeast-4") return ["au", "apac", "global"];
  if (region.startsWith("ap-")) return ["apac", "global"];
  return ["global"];
}

/** Whether a name already is a Bedrock model id, inference profile id or ARN. */
const isBedrockId = (model: string) => model.startsWith("arn:") || /^([a-z-]+\.)?anthropic\./.test(model);

export function bedrockModelId(model: string, region: string): string {
  if (isBedrockId(model)) return model;
  const known = models[aliases[model] ?? model];
  if (!known) return model;
  if (!known.profileOnly) return known.id;
  const geography = geographiesOf(region).find((candidate) => known.geographies.includes(candidate));
  return geography ? `${geography}.${known.id}` : known.id;
}

/** A Bedrock model id back as the Claude name the gateway lists ("fetch models"). */
export function claudeNameOf(modelId: string): string {
  for (const [name, model] of Object.entries(models)) if (model.id === modelId) return name;
  return modelId.replace(/^anthropic\./, "").replace(/-v\d+(:\d+)?$/, "");
}
