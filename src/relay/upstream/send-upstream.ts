// One request to an upstream through its type's transport: fetch (no redirects followed, the
// channel's proxy), or the type's own (a WebSocket, submit-then-poll).
import type { ProviderAdaptor, UpstreamRequest, UpstreamTarget } from "../providers/adaptor.ts";

export function sendUpstream(
  adaptor: Pick<ProviderAdaptor, "send"> | undefined,
  request: UpstreamRequest,
  target: UpstreamTarget,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const proxy = target.setting.proxy;
  if (adaptor?.send) return adaptor.send(request, { signal, ...(proxy ? { proxy } : {}) });
  return fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: "manual",
    signal,
    ...(proxy ? { proxy } : {}),
  } as RequestInit);
}
