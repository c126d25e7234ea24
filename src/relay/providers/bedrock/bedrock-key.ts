// A Bedrock channel's key, in one of two forms:
//   - "AccessKeyId|SecretAccessKey|Region" (docs/COMPATIBILITY.md, Channel types): requests are signed with SigV4;
//   - "<Bedrock API key>|Region" (new-api's form for AWS's Bedrock API keys): the key goes as
//     `Authorization: Bearer <key>`, unsigned (AWS's "Use an Amazon Bedrock API key": the bearer
//     form of AWS_BEARER_TOKEN_BEDROCK, accepted by Bedrock and Bedrock Runtime actions).
// A key in any other shape is the operator's mistake, said plainly; the relay tries another channel.
import { refuseChannelSetup } from "../conversion-refusal.ts";
import type { AwsCredentials } from "./aws-signing.ts";

export type BedrockKey = { credentials: AwsCredentials; region: string } | { apiKey: string; region: string };

const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export function parseBedrockKey(key: string): BedrockKey {
  const parts = key.split("|").map((part) => part.trim());
  const region = parts[parts.length - 1];
  const valid = !!region && regionPattern.test(region) && parts.every(Boolean);
  if (valid && parts.length === 3) return { credentials: { accessKeyId: parts[0]!, secretAccessKey: parts[1]! }, region: region! };
  if (valid && parts.length === 2) return { apiKey: parts[0]!, region: region! };
  return refuseChannelSetup("AWS 渠道密钥格式错误，应为 Ak|Sk|Region 或 ApiKey|Region，例如 AKIA…|secret|us-east-1");
}
