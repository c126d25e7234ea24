// SiliconCloud (type 40): OpenAI-style chat, embeddings, rerank, images and audio; the balance
// from /v1/user/info.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";

const vendor = { defaultBaseUrl: "https://api.siliconflow.cn" };

export const siliconCloudAdaptor = createCompatibleAdaptor({
  type: ChannelType.SiliconCloud,
  name: "SiliconCloud",
  owner: "siliconflow",
  ...vendor,
  // Its chat reference documents max_tokens, not max_completion_tokens.
  maxTokensOnly: true,
  streamUsage: false,
  balance: {
    requests: (target) => [{ url: joinBaseUrl(baseUrlOf(vendor, target), "/v1/user/info"), method: "GET", headers: bearer(target) }],
    parse([body]) {
      const data = JSON.parse(body ?? "{}").data ?? {};
      const balance = Number(data.totalBalance ?? data.balance);
      if (!Number.isFinite(balance)) throw new Error("no balance in the answer");
      return balance;
    },
  },
});
