// GitHub and LinuxDO sign-in: trade the authorization code for an access token, then read who
// the person is. The endpoints come from the configuration (real services by default, a local
// imitation in tests). Provider errors are logged, never shown raw.
import type { ProviderEndpoints } from "../../config.ts";
import { providerEndpoints } from "./provider-endpoints.ts";
import { AppError, invalid } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { optionText } from "../options/options.ts";
import type { SocialIdentity } from "./social-accounts.ts";

export type OAuthProvider = "github" | "linuxdo";

const providerNames: Record<OAuthProvider, string> = { github: "GitHub", linuxdo: "Linux DO" };
const timeout = 10_000;

async function readJson(request: () => Promise<Response>, provider: OAuthProvider): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await request();
  } catch (error) {
    logger.warn("oauth provider unreachable", { provider, reason: error instanceof Error ? error.message : String(error) });
    throw new AppError("unavailable", "无法连接至 {{provider}} 服务器，请稍后重试！", { provider: providerNames[provider] });
  }
  try {
    return (await response.json()) as Record<string, unknown>;
  } catch {
    logger.warn("oauth provider answered with no JSON", { provider, status: response.status });
    return {};
  }
}

function accessTokenOf(body: Record<string, unknown>, provider: OAuthProvider): string {
  const token = body.access_token;
  if (typeof token === "string" && token !== "") return token;
  // A wrong, expired or already used code ends here (GitHub says bad_verification_code).
  logger.warn("oauth code refused", { provider, error: String(body.error ?? body.message ?? "no access_token") });
  throw invalid("{{provider}} 授权失败，请重新登录", { provider: providerNames[provider] });
}

const idText = (value: unknown) => (typeof value === "number" || (typeof value === "string" && value !== "") ? String(value) : "");
const text = (value: unknown) => (typeof value === "string" ? value : "");

async function githubIdentity(code: string, endpoints: ProviderEndpoints["github"]): Promise<SocialIdentity> {
  const tokenBody = await readJson(
    () =>
      fetch(endpoints.token, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify({ client_id: optionText("GitHubClientId"), client_secret: optionText("GitHubClientSecret"), code }),
        signal: AbortSignal.timeout(timeout),
      }),
    "github",
  );
  const accessToken = accessTokenOf(tokenBody, "github");
  const user = await readJson(
    () =>
      fetch(endpoints.user, {
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/vnd.github+json", "user-agent": "Switchyard" },
        signal: AbortSignal.timeout(timeout),
      }),
    "github",
  );
  const id = idText(user.id);
  const login = text(user.login);
  if (!id || !login) throw invalid("返回值非法，用户字段为空，请稍后重试！");
  // new-api stored the login as github_id; the numeric id survives renames, so it is the key
  // now, and a binding made by new-api is found by its login once and moved to the id.
  return { provider: "github", id, legacyId: login, displayName: text(user.name) || login, email: text(user.email) };
}

async function linuxdoIdentity(code: string, endpoints: ProviderEndpoints["linuxdo"]): Promise<SocialIdentity> {
  const credentials = btoa(`${optionText("LinuxDOClientId")}:${optionText("LinuxDOClientSecret")}`);
  const tokenBody = await readJson(
    () =>
      fetch(endpoints.token, {
        method: "POST",
        headers: { authorization: `Basic ${credentials}`, "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ grant_type: "authorization_code", code }),
        signal: AbortSignal.timeout(timeout),
      }),
    "linuxdo",
  );
  const accessToken = accessTokenOf(tokenBody, "linuxdo");
  const user = await readJson(
    () =>
      fetch(endpoints.user, {
        headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
        signal: AbortSignal.timeout(timeout),
      }),
    "linuxdo",
  );
  const id = idText(user.id);
  if (!id || id === "0") throw invalid("返回值非法，用户字段为空，请稍后重试！");
  return { provider: "linuxdo", id, displayName: text(user.name) || text(user.username) };
}

/** Who signed in at the provider, from the code its authorize page sent back. */
export function identityFromCode(provider: OAuthProvider, code: string | undefined): Promise<SocialIdentity> {
  if (!code || code.trim() === "") throw invalid("无效的参数");
  const endpoints = providerEndpoints();
  return provider === "github" ? githubIdentity(code.trim(), endpoints.github) : linuxdoIdentity(code.trim(), endpoints.linuxdo);
}

/** The authorize page the console opens (the state is appended by the browser). */
export function authorizeUrl(provider: OAuthProvider): string {
  const endpoints = providerEndpoints();
  const url = new URL(provider === "github" ? endpoints.github.authorize : endpoints.linuxdo.authorize);
  if (provider === "github") {
    url.searchParams.set("client_id", optionText("GitHubClientId"));
    url.searchParams.set("scope", "user:email");
  } else {
    url.searchParams.set("response_type", "code");
    url.searchParams.set("client_id", optionText("LinuxDOClientId"));
  }
  return url.toString();
}
