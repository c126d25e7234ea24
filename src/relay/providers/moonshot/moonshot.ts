// Moonshot (type 25): OpenAI-style at api.moonshot.cn.
import { createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

export const moonshotAdaptor = createCompatibleAdaptor({
  kind: 25,
  name: "Moonshot",
  owner: "moonshot",
  defaultBaseUrl: "https://api.moonshot.cn",
  streamUsage: false,
});
