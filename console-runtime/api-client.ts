// Calls to /api from the console, with the user-id header every authenticated call needs and
// the error handling of docs/COMPATIBILITY.md, Sessions, Console conventions: 401 -> sign-in page, 429/500/405 fixed texts, otherwise the
// server's message; success:false shows the server's message as an error toast.
import { currentUser, rememberUser, text } from "./console-data.ts";
import { showToast } from "./toasts.ts";

export type Envelope<T = unknown> = { success: boolean; message: string; data?: T };

export class ApiFailure extends Error {
  /** The server's answer, when there was one: its `data` may say what to ask the user for. */
  constructor(
    message: string,
    readonly envelope?: Envelope,
  ) {
    super(message);
  }
}

export function userHeaders(): Record<string, string> {
  const user = currentUser();
  return user ? { "New-Api-User": String(user.id) } : {};
}

export function redirectToLogin(): void {
  rememberUser(null);
  window.location.href = "/login?expired=true";
}

/** Shows the fixed message for an HTTP failure (a 401 goes to the sign-in page instead). */
export function reportHttpFailure(status: number, message?: string): void {
  if (status === 401) redirectToLogin();
  else if (status === 429) showToast(text("错误：请求次数过多，请稍后再试！"), "error");
  else if (status === 500) showToast(text("错误：服务器内部错误，请联系管理员！"), "error");
  else if (status === 405) showToast(text("本站仅作演示之用，无服务端！"), "error");
  else showToast(text("错误：") + (message ?? String(status)), "error");
}

/**
 * Calls /api; resolves with the envelope's data or rejects after telling the user why.
 * `failureText` replaces the generic 请求失败 when the call never got an answer with a message
 * (settings use the spec's 保存失败，请重试).
 */
export async function apiCall<T = unknown>(
  method: string,
  url: string,
  body?: unknown,
  quiet = false,
  failureText?: string,
): Promise<Envelope<T>> {
  let response: Response;
  try {
    response = await fetch(url, {
      method,
      headers: { ...userHeaders(), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "same-origin",
    });
  } catch (error) {
    showToast(failureText ?? text("请求失败"), "error");
    throw new ApiFailure(String(error));
  }
  let envelope: Envelope<T> | undefined;
  try {
    envelope = (await response.json()) as Envelope<T>;
  } catch {
    envelope = undefined;
  }
  if (!response.ok) {
    reportHttpFailure(response.status, envelope?.message);
    throw new ApiFailure(envelope?.message ?? String(response.status));
  }
  if (!envelope?.success) {
    if (!quiet) showToast(envelope?.message || failureText || text("请求失败"), "error");
    throw new ApiFailure(envelope?.message ?? "", envelope);
  }
  return envelope;
}
