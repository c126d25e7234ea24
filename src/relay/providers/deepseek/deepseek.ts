// DeepSeek (type 43): OpenAI-style, with usage on streams; the balance from /user/balance.
import { ChannelType } from "../../../services/channels/channel-types.ts";
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";

const vendor = { defaultBaseUrl: "https://api.deepseek.com" };

type BalanceInfo = { currency?: string; total_balance?: string | number };

export const deepSeekAdaptor = createCompatibleAdaptor({
  type: ChannelType.DeepSeek,
  name: "DeepSeek",
  owner: "deepseek",
  ...vendor,
  // Its chat reference documents max_tokens, not max_completion_tokens.
  maxTokensOnly: true,
  streamUsage: true,
  balance: {
    requests: (target) => [
      { url: `${baseUrlOf(vendor, target).replace(/\/v1$/, "")}/user/balance`, method: "GET", headers: bearer(target) },
    ],
    parse([body]) {
      const infos = (JSON.parse(body ?? "{}").balance_infos ?? []) as BalanceInfo[];
      const info = infos.find((entry) => entry.currency === "USD") ?? infos[0];
      const balance = Number(info?.total_balance);
      if (!Number.isFinite(balance)) throw new Error("no balance_infos in the answer");
      return balance;
    },
  },
});
