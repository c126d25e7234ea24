// The client's address, for rate limits and token allow-lists. X-Forwarded-For is believed only
// when the operator says a proxy sits in front (TRUST_PROXY), or anyone could forge it.
import type { Server } from "bun";

export function clientAddress(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get("x-forwarded-for");
    if (forwarded) return forwarded.split(",")[0]!.trim();
    const real = request.headers.get("x-real-ip");
    if (real) return real.trim();
  }
  const address = server?.requestIP(request)?.address ?? "unknown";
  // Bun reports IPv4 clients of a dual-stack socket as ::ffff:a.b.c.d.
  return address.startsWith("::ffff:") ? address.slice(7) : address;
}

const proxyHeaders = ["x-forwarded-for", "x-real-ip", "forwarded"];

/**
 * Whether the client is this machine. A request that carries a proxy's forwarding headers is not,
 * even when TRUST_PROXY is off: a reverse proxy on the same host reaches us from loopback on
 * behalf of anyone on the internet.
 */
export function isLoopbackClient(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): boolean {
  if (!trustProxy && proxyHeaders.some((name) => request.headers.has(name))) return false;
  const address = clientAddress(request, server, trustProxy);
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
}
