// Whether an account keeps a way to sign in when one is taken away (unbinding an OpenID Connect
// account, removing a passkey): a password, a bound social account, or another passkey.
import { passkeyCount } from "../passkeys/passkey-store.ts";
import type { UserRow } from "./user-view.ts";

type Removed = "oidc" | "passkey";

export async function keepsASignInMethod(user: UserRow, removing: Removed): Promise<boolean> {
  if (user.password !== "") return true;
  const socials = [user.github_id, user.linux_do_id, user.wechat_id, user.telegram_id, removing === "oidc" ? "" : user.oidc_id];
  if (socials.some((id) => id !== "")) return true;
  return (await passkeyCount(user.id)) > (removing === "passkey" ? 1 : 0);
}
