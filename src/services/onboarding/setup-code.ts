// The one-time setup code (issue 30). A new gateway has root / 123456, which anyone can type: on a
// public address the first visitor could take the site before its owner does. So, until root's
// password is changed, the default password signs in from another address only together with a
// code printed to the server's log, which only whoever runs the server can read. From the server
// itself (loopback) it signs in as before, so scripts on the machine keep working.
//
// The code lives in the store (an internal option), so it survives restarts and every instance
// sharing the store accepts the same one; it is printed at each start while it is pending, and
// cleared once root's password changes (whatever changed it: the users change notice).
import { and, eq } from "drizzle-orm";
import { AppError } from "../../errors/app-error.ts";
import { logger } from "../../logger.ts";
import { db, t } from "../../store/client.ts";
import { onChange } from "../change-notices.ts";
import { sha256Hex } from "../users/random-codes.ts";
import { defaultRootPasswordHash } from "../users/passwords.ts";
import { rootDefaults } from "../users/registration.ts";
import type { UserRow } from "../users/user-view.ts";
import { usesDefaultPassword } from "./default-password.ts";

const optionKey = "SetupCode";

/** Where a sign-in comes from, as far as the setup code cares. */
export type SignInOrigin = { loopback: boolean };

const setupCodeMissing = "从其他电脑用默认密码登录 root 需要安装码：请在服务器日志中查找含有 setup code 的一行";
const setupCodeWrong = "安装码错误：请在服务器日志中查找含有 setup code 的一行";

// Crockford's base32 digits: no I, L, O or U to misread. 12 of them are 60 random bits, and the
// sign-in failure limits (credential-guard.ts) allow a few dozen guesses per address and account
// per window.
const digits = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

function newSetupCode(): string {
  const raw = Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => digits[byte % 32]).join("");
  return `${raw.slice(0, 4)}-${raw.slice(4, 8)}-${raw.slice(8)}`;
}

/** What people type: any case, with or without the dashes and spaces. */
const normalized = (code: string) => code.toUpperCase().replace(/[\s-]+/g, "");

async function storedSetupCode(): Promise<string> {
  const [row] = await db.select({ value: t.options.value }).from(t.options).where(eq(t.options.key, optionKey)).limit(1);
  return row?.value ?? "";
}

/** Whether this instance has seen a pending code, so must listen for root's password change. */
let watching = false;

/**
 * The pending code, creating it when there is none. The option row exists from the first start
 * (options.ts); only the first instance's code sticks, as the update applies while it is empty.
 */
async function pendingSetupCode(): Promise<{ code: string; created: boolean }> {
  watching = true;
  const existing = await storedSetupCode();
  if (existing) return { code: existing, created: false };
  const code = newSetupCode();
  await db
    .update(t.options)
    .set({ value: code })
    .where(and(eq(t.options.key, optionKey), eq(t.options.value, "")));
  const stored = await storedSetupCode();
  return { code: stored, created: stored === code };
}

function printSetupCode(code: string): void {
  logger.warn(
    `setup code ${code}: root / 123456 signs in from another address only with this code, until root's password is changed (from this machine it is not needed)`,
  );
}

/**
 * At start: while root still has the default password, make sure a code exists and print it.
 * `createdRoot` says root was made just now; otherwise its stored hash is compared with the
 * default one (no password hashing on a start).
 */
export async function announceSetupCode(createdRoot: boolean): Promise<void> {
  let pending = createdRoot;
  if (!pending) {
    const [root] = await db
      .select({ password: t.users.password })
      .from(t.users)
      .where(eq(t.users.username, rootDefaults.username))
      .limit(1);
    pending = root?.password === defaultRootPasswordHash;
    if (!pending && (await storedSetupCode())) await voidSetupCode();
  }
  if (pending) printSetupCode((await pendingSetupCode()).code);
}

/**
 * The sign-in step: root with the default password from another address needs the code. A root
 * whose default password was never announced (a store imported with it) gets a code now, printed.
 */
export async function checkSetupCode(user: UserRow, given: string | undefined, origin: SignInOrigin): Promise<void> {
  if (origin.loopback || !(await usesDefaultPassword(user))) return;
  const pending = await pendingSetupCode();
  if (pending.created) printSetupCode(pending.code);
  if (!given) throw new AppError("unauthorized", setupCodeMissing, undefined, { httpStatus: 200, data: { setup_code_required: true } });
  // The global crypto's: node:crypto is kept out of a start (docs/ARCHITECTURE.md, "Start-up").
  const matches = crypto.timingSafeEqual(
    Buffer.from(sha256Hex(normalized(given)), "hex"),
    Buffer.from(sha256Hex(normalized(pending.code)), "hex"),
  );
  if (!matches) throw new AppError("unauthorized", setupCodeWrong, undefined, { httpStatus: 200, data: { setup_code_required: true } });
}

async function voidSetupCode(): Promise<void> {
  watching = false;
  await db.update(t.options).set({ value: "" }).where(eq(t.options.key, optionKey));
}

/** Clears the code once root's password is no longer the default, on whichever instance hears it. */
export function watchRootPassword(): void {
  onChange("users", (subject) => {
    if (!watching) return;
    void (async () => {
      const [root] = await db.select().from(t.users).where(eq(t.users.username, rootDefaults.username)).limit(1);
      if (!root || (subject !== "" && String(root.id) !== subject)) return;
      if (!(await usesDefaultPassword(root)) && (await storedSetupCode())) {
        await voidSetupCode();
        logger.info("root's password was changed: the setup code is void");
      }
    })().catch((error: unknown) => logger.error("could not void the setup code", { error: String(error) }));
  });
}
