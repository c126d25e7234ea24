// Who we are to WebAuthn (issue 28): the relying party id is the host name of the site's address
// and the expected origin its scheme, host and port. The address is ServerAddress when the
// operator set it; else, behind a trusted proxy (TRUST_PROXY), X-Forwarded-Host and
// X-Forwarded-Proto; else the Host the browser asked for.
import { optionText } from "../services/options/options.ts";
import type { RelyingParty } from "../services/passkeys/passkey-ceremonies.ts";

function fromAddress(address: string): RelyingParty | undefined {
  try {
    const url = new URL(address.includes("://") ? address : `https://${address}`);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    return { id: url.hostname.replace(/^\[|\]$/g, ""), origin: url.origin };
  } catch {
    return undefined;
  }
}

export function relyingPartyOf(request: Request, trustProxy: boolean): RelyingParty {
  const configured = optionText("ServerAddress");
  const fromOption = configured ? fromAddress(configured) : undefined;
  if (fromOption) return fromOption;
  const url = new URL(request.url);
  if (trustProxy) {
    const host = request.headers.get("x-forwarded-host")?.split(",")[0]?.trim();
    const proto = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() || url.protocol.replace(":", "");
    const forwarded = host ? fromAddress(`${proto}://${host}`) : undefined;
    if (forwarded) return forwarded;
  }
  const host = request.headers.get("host");
  return (host ? fromAddress(`${url.protocol}//${host}`) : undefined) ?? { id: url.hostname, origin: url.origin };
}
