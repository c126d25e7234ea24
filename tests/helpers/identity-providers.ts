// A local imitation of the identity services the gateway talks to (the OpenID Connect provider
// is oidc-identity-provider.ts): GitHub's and LinuxDO's OAuth
// token and user endpoints, Cloudflare Turnstile's siteverify and a WeChat login server. Codes
// are single-use and checked against the client credentials, like the real services. Point the
// gateway at it with `env` (configuration) and `options` (site options).
export type GitHubPerson = { id: number; login: string; name?: string | null; email?: string | null };
export type LinuxDoPerson = { id: number; username: string; name?: string };

export type IdentityProviders = {
  url: string;
  /** Environment for startTestServer: the provider endpoints of this imitation. */
  env: Record<string, string>;
  /** Site options (client ids and secrets, WeChat server) matching this imitation. */
  options: { key: string; value: string }[];
  /** A GitHub authorization code that signs `person` in, once. */
  githubCode(person: GitHubPerson): string;
  linuxdoCode(person: LinuxDoPerson): string;
  /** A WeChat login code for an openid, valid until used `uses` times (the real server reuses). */
  wechatCode(openid: string, uses?: number): string;
  /** A Turnstile token siteverify accepts once. */
  turnstileToken(): string;
  /**
   * Who "signs in" at the imitation's GitHub authorize page: it then redirects the browser to
   * `callback` (the gateway's /oauth/github) with a fresh code and the state it was given.
   */
  authorizeGitHubAs(person: GitHubPerson, callback: string): void;
  /** Requests received, by path, for assertions. */
  calls: { path: string; body: string; authorization: string }[];
  stop(): void;
};

export const providerSecrets = {
  githubClientId: "gh-client-id",
  githubClientSecret: "gh-client-secret",
  linuxdoClientId: "ld-client-id",
  linuxdoClientSecret: "ld-client-secret",
  wechatToken: "wechat-server-token",
  turnstileSecret: "turnstile-secret",
};

export function startIdentityProviders(): IdentityProviders {
  let sequence = 0;
  const next = (prefix: string) => `${prefix}-${++sequence}-${Math.random().toString(36).slice(2, 8)}`;
  const githubCodes = new Map<string, GitHubPerson>();
  const linuxdoCodes = new Map<string, LinuxDoPerson>();
  const tokens = new Map<string, { kind: "github"; person: GitHubPerson } | { kind: "linuxdo"; person: LinuxDoPerson }>();
  const wechatCodes = new Map<string, { openid: string; uses: number }>();
  const turnstileTokens = new Set<string>();
  const calls: IdentityProviders["calls"] = [];
  let githubLogin: { person: GitHubPerson; callback: string } | undefined;
  const json = (body: unknown, status = 200) => Response.json(body, { status });

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    async fetch(request) {
      const url = new URL(request.url);
      const body = request.method === "POST" ? await request.text() : "";
      const authorization = request.headers.get("authorization") ?? "";
      calls.push({ path: url.pathname, body, authorization });
      switch (url.pathname) {
        case "/github/login/oauth/authorize": {
          if (!githubLogin || url.searchParams.get("client_id") !== providerSecrets.githubClientId)
            return json({ error: "unknown client" }, 400);
          const code = next("ghcode");
          githubCodes.set(code, githubLogin.person);
          const back = new URL(githubLogin.callback);
          back.searchParams.set("code", code);
          back.searchParams.set("state", url.searchParams.get("state") ?? "");
          return Response.redirect(back.toString(), 302);
        }
        case "/github/login/oauth/access_token": {
          const input = JSON.parse(body || "{}") as { client_id?: string; client_secret?: string; code?: string };
          if (input.client_id !== providerSecrets.githubClientId || input.client_secret !== providerSecrets.githubClientSecret) {
            return json({ error: "incorrect_client_credentials" });
          }
          const person = githubCodes.get(input.code ?? "");
          if (!person) return json({ error: "bad_verification_code", error_description: "The code passed is incorrect or expired." });
          githubCodes.delete(input.code!);
          const token = next("gho");
          tokens.set(token, { kind: "github", person });
          return json({ access_token: token, token_type: "bearer", scope: "user:email" });
        }
        case "/github/user": {
          const found = tokens.get(authorization.replace(/^Bearer /, ""));
          if (found?.kind !== "github") return json({ message: "Bad credentials" }, 401);
          return json({
            id: found.person.id,
            login: found.person.login,
            name: found.person.name ?? null,
            email: found.person.email ?? null,
          });
        }
        case "/linuxdo/oauth2/token": {
          const expected = `Basic ${btoa(`${providerSecrets.linuxdoClientId}:${providerSecrets.linuxdoClientSecret}`)}`;
          if (authorization !== expected) return json({ error: "invalid_client" }, 401);
          const form = new URLSearchParams(body);
          const person = linuxdoCodes.get(form.get("code") ?? "");
          if (form.get("grant_type") !== "authorization_code" || !person) return json({ error: "invalid_grant" }, 400);
          linuxdoCodes.delete(form.get("code")!);
          const token = next("ld");
          tokens.set(token, { kind: "linuxdo", person });
          return json({ access_token: token, token_type: "bearer" });
        }
        case "/linuxdo/api/user": {
          const found = tokens.get(authorization.replace(/^Bearer /, ""));
          if (found?.kind !== "linuxdo") return json({ error: "unauthorized" }, 401);
          return json({
            id: found.person.id,
            username: found.person.username,
            name: found.person.name ?? "",
            active: true,
            trust_level: 1,
            silenced: false,
          });
        }
        case "/turnstile/siteverify": {
          const form = new URLSearchParams(body);
          const token = form.get("response") ?? "";
          const valid = form.get("secret") === providerSecrets.turnstileSecret && turnstileTokens.delete(token);
          return json({ success: valid, "error-codes": valid ? [] : ["invalid-input-response"] });
        }
        case "/wechat/api/wechat/user": {
          if (authorization !== providerSecrets.wechatToken) return json({ success: false, message: "无权进行此操作，令牌无效" });
          const entry = wechatCodes.get(url.searchParams.get("code") ?? "");
          if (!entry || entry.uses <= 0) return json({ success: false, message: "验证码错误或已过期" });
          entry.uses--;
          return json({ success: true, message: "", data: entry.openid });
        }
      }
      return json({ error: "not found" }, 404);
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    env: {
      GITHUB_OAUTH_AUTHORIZE_URL: `${url}/github/login/oauth/authorize`,
      GITHUB_OAUTH_TOKEN_URL: `${url}/github/login/oauth/access_token`,
      GITHUB_USER_URL: `${url}/github/user`,
      LINUXDO_OAUTH_AUTHORIZE_URL: `${url}/linuxdo/oauth2/authorize`,
      LINUXDO_OAUTH_TOKEN_URL: `${url}/linuxdo/oauth2/token`,
      LINUXDO_USER_URL: `${url}/linuxdo/api/user`,
      TURNSTILE_VERIFY_URL: `${url}/turnstile/siteverify`,
    },
    options: [
      { key: "GitHubClientId", value: providerSecrets.githubClientId },
      { key: "GitHubClientSecret", value: providerSecrets.githubClientSecret },
      { key: "LinuxDOClientId", value: providerSecrets.linuxdoClientId },
      { key: "LinuxDOClientSecret", value: providerSecrets.linuxdoClientSecret },
      { key: "WeChatServerAddress", value: `${url}/wechat` },
      { key: "WeChatServerToken", value: providerSecrets.wechatToken },
      { key: "TurnstileSiteKey", value: "turnstile-site-key" },
      { key: "TurnstileSecretKey", value: providerSecrets.turnstileSecret },
    ],
    githubCode(person) {
      const code = next("ghcode");
      githubCodes.set(code, person);
      return code;
    },
    linuxdoCode(person) {
      const code = next("ldcode");
      linuxdoCodes.set(code, person);
      return code;
    },
    wechatCode(openid, uses = 5) {
      const code = String(100000 + ++sequence);
      wechatCodes.set(code, { openid, uses });
      return code;
    },
    authorizeGitHubAs(person, callback) {
      githubLogin = { person, callback };
    },
    turnstileToken() {
      const token = next("turnstile");
      turnstileTokens.add(token);
      return token;
    },
    calls,
    stop: () => void server.stop(true),
  };
}
