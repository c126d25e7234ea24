// The checks in front of endpoints that send codes or mails and of OAuth: the per-address
// critical rate limit, and the Turnstile human check where the spec asks for it. Sign-in,
// registration and reset have limits of their own (credential-guard.ts).
import type { Server } from "bun";
import type { Config } from "../config.ts";
import { checkTurnstile } from "../services/auth/turnstile.ts";
import { clientAddress } from "./client-address.ts";
import { enforceRateLimit } from "./rate-limit.ts";

type RequestInfo = { request: Request; server: Server<unknown> | null | undefined };

export async function guardCritical(config: Config, { request, server }: RequestInfo): Promise<string> {
  const address = clientAddress(request, server, config.trustProxy);
  await enforceRateLimit("critical", address, config.criticalRateLimit);
  return address;
}

/** The critical limit, then Turnstile with the token the console sends as ?turnstile=. */
export async function guardHuman(config: Config, info: RequestInfo, token: string | undefined): Promise<void> {
  const address = await guardCritical(config, info);
  await checkTurnstile(token, address);
}

/** Turnstile alone, for the endpoints whose limits credential-guard.ts keeps. */
export async function guardTurnstile(config: Config, { request, server }: RequestInfo, token: string | undefined): Promise<void> {
  await checkTurnstile(token, clientAddress(request, server, config.trustProxy));
}
