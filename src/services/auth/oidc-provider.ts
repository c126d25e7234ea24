// The site's OpenID Connect provider (issue 28), through openid-client: its discovery document
// (the issuer, or the URL of the document itself), the authorization URL with PKCE (S256),
// `state` and `nonce`, and the code exchange, whose ID token is checked for its signature
// against the provider's JWKS (non-repudiation checks on), issuer, audience, expiry and nonce.
// Every request goes through the outbound URL checks (http/outbound-url.ts): a discovery URL
// inside the gateway's own network needs OUTBOUND_ALLOWED_HOSTS. Loaded on first use.
import { AppError, invalid } from "../../errors/app-error.ts";
import { fetchOutbound } from "../../http/outbound-url.ts";
import { logger } from "../../logger.ts";
import { optionText } from "../options/options.ts";
import type { SocialIdentity } from "./social-accounts.ts";

type OidcLibrary = typeof import("openid-client");
type Configuration = import("openid-client").Configuration;

const timeoutMs = 10_000;
const configurationSeconds = 600;
const oidcRefused = "OIDC 授权失败，请重新登录";

let cached: { key: string; at: number; configuration: Promise<Configuration> } | undefined;

const library = (): Promise<OidcLibrary> => import("openid-client");

/** What the browser's return to the callback page must carry back to the server. */
export type OidcFlow = { verifier: string; nonce: string; redirectUri: string };

function settings() {
  return {
    discovery: optionText("OidcDiscoveryUrl"),
    clientId: optionText("OidcClientId"),
    clientSecret: optionText("OidcClientSecret"),
    scopes: optionText("OidcScopes") || "openid profile email",
    usernameClaim: optionText("OidcUsernameClaim") || "preferred_username",
  };
}

async function discover(oidc: OidcLibrary, discoveryUrl: string, clientId: string, clientSecret: string): Promise<Configuration> {
  const url = new URL(discoveryUrl);
  const insecure = url.protocol === "http:";
  const outbound: import("openid-client").CustomFetch = (target, init) =>
    fetchOutbound(target, { ...(init as RequestInit), timeoutMs }, { allowHttp: insecure });
  const options = { [oidc.customFetch]: outbound, execute: insecure ? [oidc.allowInsecureRequests] : [] };
  const discovered = await oidc.discovery(url, clientId, clientSecret, undefined, options);
  // client_secret_basic is OAuth's default; use client_secret_post only for a provider that
  // says it takes nothing else.
  const metadata = discovered.serverMetadata();
  const methods = metadata.token_endpoint_auth_methods_supported;
  const postOnly = Array.isArray(methods) && methods.includes("client_secret_post") && !methods.includes("client_secret_basic");
  const configuration = new oidc.Configuration(
    metadata,
    clientId,
    clientSecret,
    postOnly ? oidc.ClientSecretPost(clientSecret) : oidc.ClientSecretBasic(clientSecret),
  );
  configuration[oidc.customFetch] = outbound;
  if (insecure) oidc.allowInsecureRequests(configuration);
  // Check the ID token's signature against the provider's keys even though it came straight
  // from the token endpoint.
  oidc.enableNonRepudiationChecks(configuration);
  return configuration;
}

async function configuration(oidc: OidcLibrary): Promise<Configuration> {
  const { discovery, clientId, clientSecret } = settings();
  if (!discovery || !clientId) throw invalid("管理员未开启通过 OIDC 登录以及注册");
  const key = JSON.stringify([discovery, clientId, clientSecret]);
  const now = Date.now();
  if (!cached || cached.key !== key || now - cached.at > configurationSeconds * 1000) {
    const pending = discover(oidc, discovery, clientId, clientSecret);
    cached = { key, at: now, configuration: pending };
    pending.catch(() => {
      if (cached?.configuration === pending) cached = undefined;
    });
  }
  try {
    return await cached.configuration;
  } catch (error) {
    logger.warn("oidc discovery failed", { reason: error instanceof Error ? error.message : String(error) });
    throw new AppError("unavailable", "无法连接至 {{provider}} 服务器，请稍后重试！", {
      provider: optionText("OidcProviderName") || "OIDC",
    });
  }
}

/** The provider's authorization URL for one sign-in, and what the callback will need. */
export async function oidcAuthorization(redirectUri: string, state: (flow: OidcFlow) => Promise<string>): Promise<string> {
  const oidc = await library();
  const config = await configuration(oidc);
  const flow: OidcFlow = { verifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce(), redirectUri };
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: settings().scopes,
    response_type: "code",
    code_challenge: await oidc.calculatePKCECodeChallenge(flow.verifier),
    code_challenge_method: "S256",
    nonce: flow.nonce,
    state: await state(flow),
  });
  return url.toString();
}

/** What failed, for the log: openid-client's message, code and the claim or response it was about. */
function refusalDetails(error: unknown): Record<string, string> {
  if (!(error instanceof Error)) return { reason: String(error) };
  const { code, cause } = error as Error & { code?: unknown; cause?: unknown };
  const detail =
    cause instanceof Error
      ? cause.message
      : cause && typeof cause === "object" && "claim" in cause
        ? `claim ${String((cause as { claim: unknown }).claim)}`
        : "";
  return { reason: error.message, code: typeof code === "string" ? code : "", detail };
}

const text = (value: unknown) => (typeof value === "string" ? value : typeof value === "number" ? String(value) : "");

/**
 * The person the provider signed in, from the query its authorization page sent back (code,
 * state, iss...). Refused when anything does not check out: the state, PKCE, the ID token's
 * signature, issuer, audience, expiry or nonce.
 */
export async function oidcIdentity(flow: OidcFlow, state: string, query: URLSearchParams): Promise<SocialIdentity> {
  const oidc = await library();
  const config = await configuration(oidc);
  const callback = new URL(flow.redirectUri);
  for (const [name, value] of query) callback.searchParams.set(name, value);
  let claims: Record<string, unknown> | undefined;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: flow.verifier,
      expectedNonce: flow.nonce,
      expectedState: state,
      idTokenExpected: true,
    });
    claims = tokens.claims();
  } catch (error) {
    logger.warn("oidc sign-in refused", refusalDetails(error));
    throw invalid(oidcRefused);
  }
  const sub = text(claims?.sub);
  if (!claims || !sub) throw invalid(oidcRefused);
  const claimed = text(claims[settings().usernameClaim]);
  return {
    provider: "oidc",
    id: sub,
    displayName: text(claims.name) || claimed,
    preferredUsername: claimed,
    // An address only when the provider vouches for it; it is never used to find an account.
    email: claims.email_verified === true ? text(claims.email) : "",
  };
}
