// The last test's failure, kept on the channel's row (other_info.test_failure) so the channel
// list shows every failed test, including the ones that never reached an upstream (a type
// without an adaptor, an exception) and were not slow enough or bad enough to disable the
// channel. A passing test removes it.
import { eq } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { db, t } from "../../store/client.ts";

function parseInfo(value: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(value || "{}");
    return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export async function recordTestOutcome(channelId: number, failure: string | undefined): Promise<void> {
  const [row] = await db.select({ other_info: t.channels.other_info }).from(t.channels).where(eq(t.channels.id, channelId)).limit(1);
  if (!row) return;
  const { test_failure: _previous, ...info } = parseInfo(row.other_info);
  const next = failure === undefined ? info : { ...info, test_failure: failure };
  await db
    .update(t.channels)
    .set({ other_info: JSON.stringify(next), test_time: nowSeconds() })
    .where(eq(t.channels.id, channelId));
}

/** The failure the channel's last test recorded, if it failed. */
export function lastTestFailure(otherInfo: string): string | undefined {
  const failure = parseInfo(otherInfo).test_failure;
  return typeof failure === "string" && failure !== "" ? failure : undefined;
}
