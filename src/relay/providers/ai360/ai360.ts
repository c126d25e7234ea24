// 360 AI (type 19): OpenAI-style at api.360.cn.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const ai360Adaptor = createCompatibleAdaptor({
  type: ChannelType.AI360,
  name: "360",
  owner: "360",
  defaultBaseUrl: "https://api.360.cn",
  // Its chat reference documents max_tokens, not max_completion_tokens.
  maxTokensOnly: true,
  streamUsage: false,
});
