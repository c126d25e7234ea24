// Credentials a type must obtain by an exchange before calling (Vertex's OAuth token, Baidu's
// access token), kept per instance until shortly before they expire. Concurrent calls that find
// none wait for one exchange instead of each starting their own; an answer of 401 from the
// provider drops the cached credential so the next call exchanges again.
import { nowSeconds } from "../../clock.ts";
import type { CredentialExchange, ProviderAdaptor, UpstreamTarget } from "../providers/adaptor.ts";
import { sendOnce } from "./send-once.ts";

type Credential = { value: string; expiresAt: number };

/** An exchange the provider refused or that could not be made: the attempt fails with it. */
export class CredentialExchangeError extends Error {
  constructor(
    /** The provider's status; 0 when no answer came (network failure or timeout). */
    readonly status: number,
    /** The provider's answer, for the type's parseError; or our sanitised reason. */
    readonly body: string,
  ) {
    super(`credential exchange failed (${status})`);
  }
}

/** Renewed this long before the provider says it expires, so no call carries a dying token. */
const renewMarginSeconds = 120;
const exchangeTimeoutMs = 20_000;

const cached = new Map<string, Credential>();
const exchanging = new Map<string, Promise<Credential>>();

/** The cache key: a digest, so long secrets (a service-account JSON) are not kept as map keys. */
function keyOf(exchange: CredentialExchange, target: UpstreamTarget): string {
  return `${target.type}:${new Bun.CryptoHasher("sha256").update(exchange.cacheKey(target)).digest("hex")}`;
}

function dropExpired(now: number): void {
  for (const [key, credential] of cached) if (credential.expiresAt - renewMarginSeconds <= now) cached.delete(key);
}

async function exchangeNow(exchange: CredentialExchange, target: UpstreamTarget): Promise<Credential> {
  const now = nowSeconds();
  const answer = await sendOnce(await exchange.request(target, now), target, exchangeTimeoutMs);
  if (answer.failure) throw new CredentialExchangeError(0, answer.failure);
  if (answer.status < 200 || answer.status >= 300) throw new CredentialExchangeError(answer.status, answer.text);
  let credential: Credential;
  try {
    credential = exchange.parse(answer.text, now);
  } catch {
    // A 200 that carries no credential is the provider refusing in its own words (Baidu does).
    throw new CredentialExchangeError(401, answer.text);
  }
  dropExpired(now);
  return credential;
}

/** The credential for a target: cached, or obtained by one exchange shared by concurrent calls. */
export async function credentialFor(exchange: CredentialExchange, target: UpstreamTarget): Promise<string> {
  const key = keyOf(exchange, target);
  const known = cached.get(key);
  if (known && known.expiresAt - renewMarginSeconds > nowSeconds()) return known.value;
  let pending = exchanging.get(key);
  if (!pending) {
    pending = exchangeNow(exchange, target)
      .then((credential) => {
        cached.set(key, credential);
        return credential;
      })
      .finally(() => exchanging.delete(key));
    exchanging.set(key, pending);
  }
  return (await pending).value;
}

/** Forgets a target's credential (the provider said it is no longer valid). */
export function forgetCredential(exchange: CredentialExchange, target: UpstreamTarget): void {
  cached.delete(keyOf(exchange, target));
}

/** The target as buildRequest needs it: with the credential a type obtains by exchange. */
export async function targetWithCredential(adaptor: Pick<ProviderAdaptor, "credential">, target: UpstreamTarget): Promise<UpstreamTarget> {
  if (!adaptor.credential || adaptor.credential.needed?.(target) === false) return target;
  return { ...target, credential: await credentialFor(adaptor.credential, target) };
}
