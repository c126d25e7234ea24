// The client's address, for rate limits and token allow-lists. X-Forwarded-For is believed only
// when the operator says a proxy sits in front (TRUST_PROXY), or anyone could forge it.
import type { Server } from "bun";

export function clientAddress(
  request: Request,
  server: Server<unknown> | null | undefined,
  trustProxy: boolean,
): string {
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
