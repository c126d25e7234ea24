// The secret that signs session cookies: SESSION_SECRET when the operator sets one, otherwise
// one generated on first start and kept in the store, so sessions survive restarts and every
// instance sharing the store signs alike.
import { and, eq } from "drizzle-orm";
import { db, t } from "../../store/client.ts";
import { reloadOptions, optionText } from "../options/options.ts";
import { randomAlphanumeric } from "../users/random-codes.ts";

export async function ensureSessionSecret(configured: string | undefined): Promise<string> {
  if (configured) return configured;
  if (optionText("SessionSecret")) return optionText("SessionSecret");
  // Only the first instance's value sticks: the update applies while the stored value is empty.
  await db
    .update(t.options)
    .set({ value: randomAlphanumeric(48) })
    .where(and(eq(t.options.key, "SessionSecret"), eq(t.options.value, "")));
  await reloadOptions(["SessionSecret"]);
  return optionText("SessionSecret");
}
