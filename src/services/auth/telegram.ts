// Telegram Login Widget data (id, first_name, last_name, username, photo_url, auth_date,
// hash). Telegram signs the fields with HMAC-SHA256 keyed by SHA-256 of the bot token; we check
// the signature in constant time, refuse repeated fields, stale or future auth_date, and accept
// each signed login once.
import { shared } from "../../cache/open-shared-state.ts";
import { nowSeconds } from "../../clock.ts";
import { invalid } from "../../errors/app-error.ts";
import { optionText } from "../options/options.ts";
import type { SocialIdentity } from "./social-accounts.ts";

/** A login older than a day is refused, and so is one dated more than 5 minutes ahead. */
const telegramMaxAgeSeconds = 86_400;
const futureSkewSeconds = 300;
/** Query fields our console adds; they are not part of what Telegram signed. */
const ourFields = new Set(["lang", "aff"]);

const badRequest = () => invalid("无效的请求");

function telegramSignature(fields: [string, string][], botToken: string): string {
  const checkString = fields
    .map(([key, value]) => `${key}=${value}`)
    .sort()
    .join("\n");
  const secret = new Bun.CryptoHasher("sha256").update(botToken).digest();
  return new Bun.CryptoHasher("sha256", secret).update(checkString).digest("hex");
}

export async function telegramIdentity(query: URLSearchParams): Promise<SocialIdentity> {
  const seen = new Set<string>();
  const signed: [string, string][] = [];
  let hash = "";
  for (const [key, value] of query) {
    if (seen.has(key)) throw badRequest();
    seen.add(key);
    if (key === "hash") hash = value;
    else if (!ourFields.has(key)) signed.push([key, value]);
  }
  const id = query.get("id") ?? "";
  if (!/^[0-9a-f]{64}$/i.test(hash) || !/^\d+$/.test(id)) throw badRequest();
  const expected = Buffer.from(telegramSignature(signed, optionText("TelegramBotToken")), "hex");
  if (!crypto.timingSafeEqual(expected, Buffer.from(hash.toLowerCase(), "hex"))) throw badRequest();
  const authDate = Number(query.get("auth_date"));
  const now = nowSeconds();
  if (!Number.isInteger(authDate) || now - authDate > telegramMaxAgeSeconds || authDate - now > futureSkewSeconds) {
    throw invalid("Telegram 登录信息已过期，请重新登录");
  }
  // A signed login is good for a day; someone who copies its URL must not reuse it.
  const first = await shared.setIfAbsent(`telegram-login:${hash.toLowerCase()}`, "1", telegramMaxAgeSeconds + futureSkewSeconds);
  if (!first) throw badRequest();
  const name = [query.get("first_name"), query.get("last_name")].filter(Boolean).join(" ");
  return { provider: "telegram", id, displayName: name || query.get("username") || "" };
}
