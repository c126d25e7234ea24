// SiliconCloud (type 40): OpenAI-style chat, embeddings, rerank, images and audio; the balance
// from /v1/user/info.
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";

const vendor = { defaultBaseUrl: "https://api.siliconflow.cn" };

export const siliconCloudAdaptor = createCompatibleAdaptor({
  kind: 40,
  name: "SiliconCloud",
  owner: "siliconflow",
  ...vendor,
  streamUsage: false,
  balance: {
    buildBalanceRequests: (target) => [{ url: joinBaseUrl(baseUrlOf(vendor, target), "/v1/user/info"), method: "GET", headers: bearer(target) }],
    parseBalance([body]) {
      const data = JSON.parse(body ?? "{}").data ?? {};
      const balance = Number(data.totalBalance ?? data.balance);
      if (!Number.isFinite(balance)) throw new Error("no balance in the answer");
      return balance;
    },
  },
});
