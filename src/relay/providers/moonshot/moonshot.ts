// Moonshot (type 25): OpenAI-style at api.moonshot.cn; the balance from /v1/users/me/balance
// (Moonshot's "查询余额": data.available_balance, cash plus vouchers, in the account's currency).
// Kimi's vision models take an image as base64 or a Moonshot file id (ms://), not as a link
// (Moonshot's chat reference): links are downloaded and inlined. Stream usage comes inside the
// finishing choice by itself (openai-compatible/openai-stream.ts reads it there).
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";

const vendor = { defaultBaseUrl: "https://api.moonshot.cn" };

export const moonshotAdaptor = createCompatibleAdaptor({
  type: ChannelType.Moonshot,
  name: "Moonshot",
  owner: "moonshot",
  ...vendor,
  streamUsage: false,
  inlineImages: true,
  balance: {
    requests: (target) => [{ url: joinBaseUrl(baseUrlOf(vendor, target), "/v1/users/me/balance"), method: "GET", headers: bearer(target) }],
    parse([body]) {
      const balance = Number(JSON.parse(body ?? "{}").data?.available_balance);
      if (!Number.isFinite(balance)) throw new Error("no available_balance in the answer");
      return balance;
    },
  },
});
