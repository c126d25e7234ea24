// Moonshot (type 25): OpenAI-style at api.moonshot.cn; the balance from /v1/users/me/balance
// (Moonshot's "查询余额": data.available_balance, cash plus vouchers, in the account's currency).
import { baseUrlOf, bearer, createCompatibleAdaptor } from "../openai-compatible/openai-compatible.ts";
import { joinBaseUrl } from "../openai-compatible/openai-paths.ts";

const vendor = { defaultBaseUrl: "https://api.moonshot.cn" };

export const moonshotAdaptor = createCompatibleAdaptor({
  kind: 25,
  name: "Moonshot",
  owner: "moonshot",
  ...vendor,
  streamUsage: false,
  balance: {
    buildBalanceRequests: (target) => [{ url: joinBaseUrl(baseUrlOf(vendor, target), "/v1/users/me/balance"), method: "GET", headers: bearer(target) }],
    parseBalance([body]) {
      const balance = Number(JSON.parse(body ?? "{}").data?.available_balance);
      if (!Number.isFinite(balance)) throw new Error("no available_balance in the answer");
      return balance;
    },
  },
});
