// Requests the server sends to addresses that users chose (quota-alert webhooks today; any other
// user-supplied URL the same way). Such a URL must not reach into the gateway's own network:
// loopback, private, link-local (cloud metadata), CGNAT, multicast and reserved ranges are
// refused. The host is resolved and every address checked before any socket opens, and the
// request is then pinned to the checked address (the TLS name stays the host's), so DNS cannot
// answer differently a moment later (rebinding). Redirects are not followed.
//
// Operators (and tests) may name hosts that are trusted although private, with
// OUTBOUND_ALLOWED_HOSTS: a receiver on the intranet, or a loopback sink in a test.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { AppError } from "../errors/app-error.ts";

export type OutboundPolicy = {
  /** Plain http is refused unless allowed here (webhooks are https only). */
  allowHttp?: boolean;
  /** Ports a request may go to; the usual web ports by default. */
  ports?: number[];
  /**
   * For checking a URL before it is stored (a webhook address when saved): a name that does not
   * resolve yet passes, since it points nowhere now and is checked again, and must resolve to a
   * public address, every time it is used. Never for sending.
   */
  acceptUnresolved?: boolean;
};

export type OutboundTarget = {
  url: URL;
  /** The checked address the connection must go to. */
  address: string;
  /** True when the host is on the operator's allow-list. */
  trusted: boolean;
};

const defaultPorts = [80, 443, 8080, 8443];

const blocked = new BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const)
  blocked.addSubnet(prefix, bits, "ipv4");
for (const [prefix, bits] of [
  ["::", 128],
  ["::1", 128],
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001:db8::", 32],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const)
  blocked.addSubnet(prefix, bits, "ipv6");

let trustedHosts = new Set<string>();

/** Hosts (names or addresses) that may be reached although private; from OUTBOUND_ALLOWED_HOSTS. */
export function trustOutboundHosts(hosts: string[]): void {
  trustedHosts = new Set(
    hosts
      .map((host) =>
        host
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ""),
      )
      .filter(Boolean),
  );
}

const refused = (reason: string) => new AppError("invalid", "不允许访问该地址", undefined, { cause: new Error(reason) });

/** True for an address in a range the server must never call on a user's behalf. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return blocked.check(address, family === 4 ? "ipv4" : "ipv6");
}

type Resolver = (hostname: string) => Promise<string[]>;

const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Checks a URL and resolves its host; throws AppError "不允许访问该地址" (the reason is kept as the
 * cause, for logs) when any part is not allowed. No connection is made.
 */
export async function checkOutboundUrl(
  raw: string,
  policy: OutboundPolicy = {},
  resolve: Resolver = systemResolver,
): Promise<OutboundTarget> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused("not a URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw refused(`scheme ${url.protocol}`);
  if (url.username || url.password) throw refused("credentials in the URL");
  const host = url.hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  const trusted = trustedHosts.has(host);
  if (url.protocol === "http:" && !policy.allowHttp && !trusted) throw refused("plain http");
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  if (!trusted && !(policy.ports ?? defaultPorts).includes(port)) throw refused(`port ${port}`);
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else {
    try {
      addresses = await resolve(host);
    } catch {
      if (policy.acceptUnresolved) return { url, address: "", trusted };
      throw refused(`cannot resolve ${host}`);
    }
  }
  if (addresses.length === 0) {
    if (policy.acceptUnresolved) return { url, address: "", trusted };
    throw refused(`no address for ${host}`);
  }
  // Every address must pass: a name answering with one public and one private address is refused.
  if (!trusted) {
    const bad = addresses.find(isBlockedAddress);
    if (bad) throw refused(isIP(host) ? `private address ${bad}` : `${host} resolves to ${bad}`);
  }
  return { url, address: addresses[0]!, trusted };
}

/**
 * fetch() to a checked target, connected to the checked address: the URL's host is replaced by
 * the address, the Host header and the TLS server name keep the original name.
 */
export async function fetchOutbound(
  raw: string,
  init: RequestInit & { timeoutMs: number },
  policy: OutboundPolicy = {},
): Promise<Response> {
  const target = await checkOutboundUrl(raw, policy);
  const pinned = new URL(target.url);
  const hostname = target.url.hostname.replace(/^\[|\]$/g, "");
  pinned.hostname = isIP(target.address) === 6 ? `[${target.address}]` : target.address;
  const headers = new Headers(init.headers);
  headers.set("host", target.url.host);
  const { timeoutMs, ...rest } = init;
  return fetch(pinned, {
    ...rest,
    headers,
    redirect: "manual",
    signal: AbortSignal.timeout(timeoutMs),
    tls: isIP(hostname) ? undefined : { serverName: hostname },
  } as RequestInit);
}
