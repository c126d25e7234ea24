// 360 AI (type 19): OpenAI-style at api.360.cn.
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const ai360Adaptor = createCompatibleAdaptor({
  kind: 19,
  name: "360",
  owner: "360",
  defaultBaseUrl: "https://api.360.cn",
  streamUsage: false,
});
