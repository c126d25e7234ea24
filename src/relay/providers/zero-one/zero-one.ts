// 01.AI (type 31): OpenAI-style at api.lingyiwanwu.com.
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const zeroOneAdaptor = createCompatibleAdaptor({
  kind: 31,
  name: "01.AI",
  owner: "01.ai",
  defaultBaseUrl: "https://api.lingyiwanwu.com",
  streamUsage: false,
});
