// A Bedrock channel's key: "AccessKeyId|SecretAccessKey|Region" (spec §3 channel types). A key
// in any other shape is the operator's mistake, said plainly; the relay tries another channel.
import { refuseChannelSetup } from "../conversion-refusal.ts";
import type { AwsCredentials } from "./aws-signing.ts";

export type BedrockKey = { credentials: AwsCredentials; region: string };

const regionPattern = /^[a-z]{2}(-[a-z]+)+-\d+$/;

export function parseBedrockKey(key: string): BedrockKey {
  const parts = key.split("|").map((part) => part.trim());
  const [accessKeyId, secretAccessKey, region] = parts;
  if (parts.length !== 3 || !accessKeyId || !secretAccessKey || !region || !regionPattern.test(region)) {
    refuseChannelSetup("AWS 渠道密钥格式错误，应为 Ak|Sk|Region，例如 AKIA…|secret|us-east-1");
  }
  return { credentials: { accessKeyId, secretAccessKey }, region };
}
