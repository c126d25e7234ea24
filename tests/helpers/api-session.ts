// An /api client that behaves like the console: keeps the session cookie and sends the
// New-Api-User header of the signed-in user.
// Bodies are loosely typed on purpose: tests assert their exact shape with toEqual.
export type ApiResult<T = any> = { status: number; body: any & { data: T }; headers: Headers };

export class ApiSession {
  cookie = "";
  userId: number | undefined;
  /** Sent instead of the cookie when set (system access token). */
  accessToken: string | undefined;
  /** Other cookies the server set (e.g. oauth_state), sent back like a browser would. */
  otherCookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResult<T>> {
    const response = await fetch(this.baseUrl + path, {
      method,
      redirect: "manual",
      headers: {
        ...(this.cookieHeader() ? { cookie: this.cookieHeader() } : {}),
        ...(this.userId !== undefined ? { "New-Api-User": String(this.userId) } : {}),
        ...(this.accessToken ? { authorization: this.accessToken } : {}),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
    });
    const setCookie = response.headers.getSetCookie();
    for (const line of setCookie) {
      const [pair] = line.split(";");
      if (pair?.startsWith("session=")) this.cookie = pair === "session=" ? "" : pair;
      else if (pair?.includes("=")) {
        const name = pair.slice(0, pair.indexOf("="));
        if (pair.endsWith("=") || /max-age=0/i.test(line)) this.otherCookies.delete(name);
        else this.otherCookies.set(name, pair);
      }
    }
    const text = await response.text();
    let parsed: any;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = { raw: text };
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  private cookieHeader(): string {
    return [this.cookie, ...this.otherCookies.values()].filter(Boolean).join("; ");
  }

  get<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("GET", path, undefined, headers);
  }
  post<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("POST", path, body ?? {}, headers);
  }
  put<T = any>(path: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>("PUT", path, body ?? {}, headers);
  }
  delete<T = any>(path: string, headers?: Record<string, string>) {
    return this.request<T>("DELETE", path, undefined, headers);
  }

  async login(username: string, password: string): Promise<ApiResult> {
    const result = await this.post("/api/user/login", { username, password });
    if (result.body.success) this.userId = result.body.data.id;
    return result;
  }
}

/**
 * Root's password in the suites. A new store's root has the default one (123456), and the console
 * asks for a new password before showing any page; rootSession() does that first-run step
 * through the API, as an operator would, so console pages work for root afterwards.
 */
export const rootPassword = "root-first-run-1";

/** Which password root has on each server, once rootSession() knows. */
const rootPasswords = new Map<string, string>();

/** Signs in as root, first replacing the default password by rootPassword if root still has it. */
export async function rootSession(baseUrl: string): Promise<ApiSession> {
  const session = new ApiSession(baseUrl);
  const known = rootPasswords.get(baseUrl);
  if (known && (await session.login("root", known)).body.success) return session;
  const first = await session.login("root", "123456");
  if (first.body.success) {
    const changed = await session.put("/api/user/self", { password: rootPassword, password2: rootPassword, original_password: "123456" });
    if (!changed.body.success) throw new Error(`root first-run password change failed: ${JSON.stringify(changed.body)}`);
  } else if (!(await session.login("root", rootPassword)).body.success) {
    throw new Error(`root login failed: ${JSON.stringify(first.body)}`);
  }
  rootPasswords.set(baseUrl, rootPassword);
  return session;
}

/** Registers and signs in a new user; returns its session. */
export async function newUserSession(baseUrl: string, username: string, password = "password123"): Promise<ApiSession> {
  const session = new ApiSession(baseUrl);
  const registered = await session.post("/api/user/register", { username, password, password2: password });
  if (!registered.body.success) throw new Error(`register ${username} failed: ${JSON.stringify(registered.body)}`);
  const login = await session.login(username, password);
  if (!login.body.success) throw new Error(`login ${username} failed: ${JSON.stringify(login.body)}`);
  return session;
}
