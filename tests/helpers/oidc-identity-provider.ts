// A local OpenID Connect provider for the gateway's generic OIDC sign-in (issue 28), beside the
// GitHub/LinuxDO imitations of identity-providers.ts: discovery document, JWKS, an authorize
// endpoint that "signs in" whoever the test names and redirects back with a code, and a token
// endpoint that checks the client's credentials, the redirect URI and PKCE (S256) before it
// answers with an RS256 ID token (jose). It misbehaves on demand: a token signed by another key,
// a wrong nonce, another audience, an expired token.
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from "jose";

export type OidcPerson = { sub: string; preferred_username?: string; name?: string; email?: string; email_verified?: boolean };
export type OidcFault = "bad-signature" | "wrong-nonce" | "wrong-aud" | "expired";

export const oidcClient = { id: "switchyard-oidc", secret: "oidc-client-secret" };

export type OidcIdentityProvider = {
  issuer: string;
  /** Site options that point the gateway at this provider (not yet enabled). */
  options: { key: string; value: string }[];
  /** Who the next visit of the authorize page signs in. */
  signInAs(person: OidcPerson): void;
  /** The next token answer misbehaves this way (once). */
  misbehave(fault: OidcFault): void;
  /** The authorize requests received (their query), for assertions on PKCE, state and nonce. */
  authorizeRequests: URLSearchParams[];
  tokenRequests: number;
  stop(): void;
};

type Grant = { person: OidcPerson; nonce: string; challenge: string; redirectUri: string };

const base64url = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("base64url");

export async function startOidcIdentityProvider(): Promise<OidcIdentityProvider> {
  const signing = await generateKeyPair("RS256", { extractable: true });
  const rogue = await generateKeyPair("RS256", { extractable: true });
  const publicJwk: JWK = { ...(await exportJWK(signing.publicKey)), kid: "main-key", alg: "RS256", use: "sig" };
  const grants = new Map<string, Grant>();
  const authorizeRequests: URLSearchParams[] = [];
  let person: OidcPerson | undefined;
  let fault: OidcFault | undefined;
  let tokenRequests = 0;
  let issuer = "";
  const json = (body: unknown, status = 200) => Response.json(body, { status, headers: { "cache-control": "no-store" } });

  async function idToken(grant: Grant): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    const current = fault;
    fault = undefined;
    const { sub, ...claims } = grant.person;
    const key: CryptoKey = current === "bad-signature" ? rogue.privateKey : signing.privateKey;
    return new SignJWT({ ...claims, nonce: current === "wrong-nonce" ? "someone-elses-nonce" : grant.nonce })
      .setProtectedHeader({ alg: "RS256", kid: "main-key", typ: "JWT" })
      .setIssuer(issuer)
      .setSubject(sub)
      .setAudience(current === "wrong-aud" ? "another-client" : oidcClient.id)
      .setIssuedAt(current === "expired" ? now - 7200 : now)
      .setExpirationTime(current === "expired" ? now - 3600 : now + 300)
      .sign(key);
  }

  function clientOf(request: Request, form: URLSearchParams): { id: string; secret: string } | undefined {
    const basic = request.headers.get("authorization");
    if (basic?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(basic.slice(6), "base64").toString("utf8").split(":").map(decodeURIComponent);
      return { id: id ?? "", secret: secret ?? "" };
    }
    const id = form.get("client_id");
    return id ? { id, secret: form.get("client_secret") ?? "" } : undefined;
  }

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      switch (url.pathname) {
        case "/.well-known/openid-configuration":
          return json({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ["code"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
            code_challenge_methods_supported: ["S256"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
            scopes_supported: ["openid", "profile", "email"],
          });
        case "/jwks":
          return json({ keys: [publicJwk] });
        case "/authorize": {
          authorizeRequests.push(url.searchParams);
          const query = url.searchParams;
          if (query.get("client_id") !== oidcClient.id || query.get("response_type") !== "code")
            return json({ error: "invalid_request" }, 400);
          if (query.get("code_challenge_method") !== "S256" || !query.get("code_challenge")) return json({ error: "invalid_request" }, 400);
          if (!person) return json({ error: "login_required" }, 400);
          const code = `code-${crypto.randomUUID()}`;
          grants.set(code, {
            person,
            nonce: query.get("nonce") ?? "",
            challenge: query.get("code_challenge")!,
            redirectUri: query.get("redirect_uri") ?? "",
          });
          const back = new URL(query.get("redirect_uri")!);
          back.searchParams.set("code", code);
          back.searchParams.set("state", query.get("state") ?? "");
          return Response.redirect(back.toString(), 302);
        }
        case "/token": {
          tokenRequests++;
          const form = new URLSearchParams(await request.text());
          const client = clientOf(request, form);
          if (client?.id !== oidcClient.id || client.secret !== oidcClient.secret) return json({ error: "invalid_client" }, 401);
          const grant = grants.get(form.get("code") ?? "");
          grants.delete(form.get("code") ?? "");
          if (form.get("grant_type") !== "authorization_code" || !grant) return json({ error: "invalid_grant" }, 400);
          if (form.get("redirect_uri") !== grant.redirectUri)
            return json({ error: "invalid_grant", error_description: "redirect_uri" }, 400);
          const verifier = form.get("code_verifier") ?? "";
          const challenge = base64url(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
          if (challenge !== grant.challenge) return json({ error: "invalid_grant", error_description: "PKCE verification failed" }, 400);
          return json({
            access_token: `at-${crypto.randomUUID()}`,
            token_type: "Bearer",
            expires_in: 300,
            id_token: await idToken(grant),
          });
        }
      }
      return json({ error: "not found" }, 404);
    },
  });
  issuer = `http://127.0.0.1:${server.port}`;
  return {
    issuer,
    options: [
      { key: "OidcDiscoveryUrl", value: issuer },
      { key: "OidcClientId", value: oidcClient.id },
      { key: "OidcClientSecret", value: oidcClient.secret },
      { key: "OidcProviderName", value: "Acme SSO" },
    ],
    signInAs(next) {
      person = next;
    },
    misbehave(next) {
      fault = next;
    },
    authorizeRequests,
    get tokenRequests() {
      return tokenRequests;
    },
    stop: () => void server.stop(true),
  };
}
