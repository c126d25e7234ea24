// Every console page a browser suite visits: what a visitor sees and what root sees, with the
// data that makes the tables show rows (channels, a token, a relayed request, a code, a user).
import { startUpstream, type Upstream } from "../fixtures/openai-upstream.ts";
import { newUserSession, rootSession } from "./api-session.ts";
import { ChannelType } from "../../src/services/channels/channel-types.ts";

export const visitorRoutes = ["/", "/login", "/register", "/reset", "/pricing", "/about", "/chat/0", "/no/such/page"];

export const rootRoutes = [
  "/",
  "/about",
  "/pricing",
  "/detail",
  "/token",
  "/log",
  "/channel",
  "/channel?tag_mode=true",
  "/channel/add",
  "/redemption",
  "/audit",
  "/user",
  "/user/edit/2",
  "/topup",
  "/setting",
  "/setting?tab=operation",
  "/setting?tab=ratelimit",
  "/setting?tab=model",
  "/setting?tab=prices",
  "/setting?tab=system",
  "/setting?tab=other",
  "/playground",
  "/chat/0",
  "/api-reference",
  "/midjourney",
  "/task",
];

/** The table pages that turn rows into cards on a phone, with the id of their table region. */
export const tablePages = [
  { path: "/channel", table: "#channel-table" },
  { path: "/token", table: "#token-table" },
  { path: "/log", table: "#log-table" },
  { path: "/redemption", table: "#redemption-table" },
  { path: "/audit", table: "#audit-table" },
  { path: "/user", table: "#users-table" },
];

/** A file-name-safe name for a route. */
export const routeName = (path: string) => path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home";

/** Channels (one with a long name), a token, a relayed request, a redemption code and a user. */
export async function seedConsole(baseUrl: string): Promise<Upstream> {
  const upstream = await startUpstream();
  const root = await rootSession(baseUrl);
  await newUserSession(baseUrl, "phoneuser");
  await root.post("/api/channel/", {
    name: "main",
    type: ChannelType.OpenAI,
    key: "sk-phone",
    base_url: upstream.url,
    models: "gpt-4o-mini,gpt-4o",
    group: "default",
    tag: "tour",
  });
  await root.post("/api/channel/", {
    name: "a-very-long-channel-name-that-does-not-fit-a-phone",
    type: ChannelType.OpenAI,
    key: "sk-phone-2",
    base_url: upstream.url,
    models: "gpt-4o-mini",
    group: "default",
  });
  await root.put("/api/option/", { key: "ModelRatio", value: JSON.stringify({ "gpt-4o-mini": 0.075, "gpt-4o": 1.25 }) });
  await root.post("/api/token/", { name: "phone-token" });
  await root.post("/api/redemption/", { name: "phone-code", count: 1, quota: 500000 });
  const [token] = (await root.get("/api/token/")).body.data;
  await fetch(`${baseUrl}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer sk-${token.key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  }).then((response) => response.text());
  return upstream;
}
