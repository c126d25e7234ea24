// 01.AI (type 31): OpenAI-style at api.lingyiwanwu.com.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const zeroOneAdaptor = createCompatibleAdaptor({
  type: ChannelType.ZeroOne,
  name: "01.AI",
  owner: "01.ai",
  defaultBaseUrl: "https://api.lingyiwanwu.com",
  // Its chat reference documents max_tokens, not max_completion_tokens.
  maxTokensOnly: true,
  streamUsage: false,
});
