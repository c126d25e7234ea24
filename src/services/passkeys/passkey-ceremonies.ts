// WebAuthn ceremonies through @simplewebauthn/server (issue 28): registering a passkey from the
// personal settings, signing in with one alone (a discoverable credential, user verification
// required), and using one as the second step of a sign-in. Challenges are one-time values in
// the store (verifications, purpose webauthn, five minutes) whose subject says which ceremony
// and which user they were issued for; a response is checked against the challenge it carries
// and the challenge is used up whatever the outcome. The library is loaded on first use.
import { invalid } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { optionText } from "../options/options.ts";
import { parseInput } from "../parse-input.ts";
import { keepsASignInMethod } from "../users/sign-in-methods.ts";
import type { UserRow } from "../users/user-view.ts";
import { consumeCodeByValue, issueCode } from "../verifications/verification-codes.ts";
import { randomAlphanumeric } from "../users/random-codes.ts";
import {
  deletePasskey,
  findPasskeyByCredentialId,
  insertPasskey,
  maxPasskeysPerUser,
  passkeysOfUser,
  recordPasskeyUse,
  toPasskeyView,
  type PasskeyRow,
  type PasskeyView,
} from "./passkey-store.ts";
import { z } from "zod";

/** The site as WebAuthn sees it: http/relying-party.ts works it out from the request. */
export type RelyingParty = { id: string; origin: string };

const challengeSeconds = 300;
export const passkeyRefused = "通行密钥验证失败";

// The library's certificate helpers (@peculiar/x509, through tsyringe) need the Reflect metadata
// polyfill loaded first; its CommonJS build does that itself, the ES build the executable
// bundles does not.
const webauthn = async () => {
  await import("reflect-metadata");
  return import("@simplewebauthn/server");
};

const credentialResponse = z
  .object({
    id: z.string().min(1).max(1024),
    rawId: z.string().max(1024),
    type: z.literal("public-key"),
    response: z.record(z.string(), z.unknown()),
  })
  .passthrough();

export const passkeyRegistrationInput = z.object({
  name: z.string().trim().max(64, "通行密钥名称不能超过 64 个字符").optional(),
  response: credentialResponse,
});

export const passkeyAssertionInput = z.object({ response: credentialResponse });

/** Which ceremony a challenge belongs to, in its subject. */
type Ceremony = { kind: "register"; userId: number } | { kind: "login" } | { kind: "second-factor"; userId: number };

const subjectOf = (ceremony: Ceremony) =>
  ceremony.kind === "login" ? `login-${randomAlphanumeric(16)}` : `${ceremony.kind}-${ceremony.userId}`;

async function rememberChallenge(challenge: string, ceremony: Ceremony, payload = ""): Promise<void> {
  await issueCode("webauthn", subjectOf(ceremony), { code: challenge, ttlSeconds: challengeSeconds, payload });
}

/** The challenge a response signed, used up; undefined when it is unknown, used or expired. */
async function consumeChallenge(response: {
  response?: unknown;
}): Promise<{ challenge: string; subject: string; payload: string } | undefined> {
  const clientData = (response.response as { clientDataJSON?: unknown } | undefined)?.clientDataJSON;
  if (typeof clientData !== "string" || clientData.length > 4096) return undefined;
  let challenge: unknown;
  try {
    challenge = (JSON.parse(Buffer.from(clientData, "base64url").toString("utf8")) as { challenge?: unknown }).challenge;
  } catch {
    return undefined;
  }
  if (typeof challenge !== "string" || challenge === "" || challenge.length > 256) return undefined;
  const found = await consumeCodeByValue("webauthn", challenge);
  return found ? { challenge, subject: found.subject, payload: found.payload } : undefined;
}

const transportsOf = (row: PasskeyRow) => (row.transports ? row.transports.split(",") : undefined);

export async function registrationOptions(user: UserRow, rp: RelyingParty) {
  const existing = await passkeysOfUser(user.id);
  if (existing.length >= maxPasskeysPerUser) throw invalid("通行密钥数量已达上限");
  const { generateRegistrationOptions } = await webauthn();
  // One user handle for all passkeys of an account, so an authenticator keeps one entry for it.
  const handle = existing[0]?.user_handle ?? Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const options = await generateRegistrationOptions({
    rpName: optionText("SystemName") || "Switchyard",
    rpID: rp.id,
    userName: user.username,
    userDisplayName: user.display_name || user.username,
    userID: new Uint8Array(Buffer.from(handle, "base64url")),
    attestationType: "none",
    excludeCredentials: existing.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await rememberChallenge(options.challenge, { kind: "register", userId: user.id }, handle);
  return options;
}

export async function finishRegistration(user: UserRow, rp: RelyingParty, body: unknown): Promise<PasskeyView> {
  const input = parseInput(passkeyRegistrationInput, body);
  const issued = await consumeChallenge(input.response);
  if (!issued || issued.subject !== `register-${user.id}`) throw invalid(passkeyRefused);
  const existing = await passkeysOfUser(user.id);
  if (existing.length >= maxPasskeysPerUser) throw invalid("通行密钥数量已达上限");
  const { verifyRegistrationResponse } = await webauthn();
  let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verification = await verifyRegistrationResponse({
      response: input.response as never,
      expectedChallenge: issued.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      requireUserVerification: false,
    });
  } catch (error) {
    logger.info("passkey registration refused", { reason: error instanceof Error ? error.message : String(error) });
    throw invalid(passkeyRefused);
  }
  if (!verification.verified) throw invalid(passkeyRefused);
  const { credential, credentialBackedUp } = verification.registrationInfo;
  if (await findPasskeyByCredentialId(credential.id)) throw invalid("该通行密钥已被注册");
  const userHandle = existing[0]?.user_handle ?? issued.payload;
  const row = await insertPasskey({
    user_id: user.id,
    credential_id: credential.id,
    public_key: Buffer.from(credential.publicKey).toString("base64url"),
    counter: credential.counter,
    transports: (credential.transports ?? []).join(",").slice(0, 128),
    user_handle: userHandle,
    name: input.name || `${optionText("SystemName") || "Switchyard"} ${existing.length + 1}`,
    backed_up: credentialBackedUp,
  });
  return toPasskeyView(row);
}

/** Options for signing in with a passkey alone: any discoverable credential of this site. */
export async function loginOptions(rp: RelyingParty) {
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "required", allowCredentials: [] });
  await rememberChallenge(options.challenge, { kind: "login" });
  return options;
}

/** Options for the second step of a sign-in: one of that user's passkeys. */
export async function secondFactorOptions(userId: number, rp: RelyingParty) {
  const passkeys = await passkeysOfUser(userId);
  if (passkeys.length === 0) throw invalid("该账户没有通行密钥");
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: "preferred",
    allowCredentials: passkeys.map((row) => ({ id: row.credential_id, transports: transportsOf(row) })),
  });
  await rememberChallenge(options.challenge, { kind: "second-factor", userId });
  return options;
}

/**
 * Checks an assertion. For a sign-in with a passkey alone (no `userId`) the authenticator must
 * have verified the person and the user handle must be the passkey's; as a second step the
 * passkey must belong to the user of the first step. Returns the passkey's owner id.
 */
export async function verifyAssertion(rp: RelyingParty, body: unknown, userId?: number): Promise<number> {
  const { response } = parseInput(passkeyAssertionInput, body);
  const issued = await consumeChallenge(response);
  const expectedSubject = userId === undefined ? "login-" : `second-factor-${userId}`;
  if (!issued || (userId === undefined ? !issued.subject.startsWith(expectedSubject) : issued.subject !== expectedSubject)) {
    throw invalid(passkeyRefused);
  }
  const passkey = await findPasskeyByCredentialId(response.id);
  if (!passkey || (userId !== undefined && passkey.user_id !== userId)) throw invalid(passkeyRefused);
  const userHandle = (response.response as { userHandle?: unknown } | undefined)?.userHandle;
  if (userId === undefined && userHandle !== passkey.user_handle) throw invalid(passkeyRefused);
  const { verifyAuthenticationResponse } = await webauthn();
  try {
    const verification = await verifyAuthenticationResponse({
      response: response as never,
      expectedChallenge: issued.challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(Buffer.from(passkey.public_key, "base64url")),
        counter: passkey.counter,
        transports: transportsOf(passkey),
      },
      requireUserVerification: userId === undefined,
    });
    if (!verification.verified) throw new Error("not verified");
    await recordPasskeyUse(passkey.id, verification.authenticationInfo.newCounter, verification.authenticationInfo.credentialBackedUp);
  } catch (error) {
    logger.info("passkey assertion refused", { reason: error instanceof Error ? error.message : String(error) });
    throw invalid(passkeyRefused);
  }
  return passkey.user_id;
}

export async function listPasskeys(userId: number): Promise<PasskeyView[]> {
  return (await passkeysOfUser(userId)).map(toPasskeyView);
}

/** Removes a passkey, unless it is the last way the account has to sign in. */
export async function removePasskey(user: UserRow, id: number): Promise<void> {
  if (!(await keepsASignInMethod(user, "passkey"))) throw invalid("这是该账户唯一的登录方式，无法删除");
  await deletePasskey(user.id, id);
}
