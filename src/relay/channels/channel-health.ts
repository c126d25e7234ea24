// Taking a failing channel out of service and bringing it back (docs/COMPATIBILITY.md, Statuses; new-api's
// service/channel.go). Disabling needs the AutomaticDisableChannelEnabled option and the
// channel's auto_ban; it sets status 3 with the reason and time in other_info, switches its
// abilities off, tells every instance, and mails root when mail is set up. Enabling (after a
// successful test, AutomaticEnableChannelEnabled) only touches channels in status 3, never
// ones an admin disabled by hand.
import { and, eq } from "drizzle-orm";
import { nowSeconds } from "../../clock.ts";
import { translator } from "../../i18n/i18n.ts";
import { logger } from "../../logger.ts";
import { announceChange } from "../../services/change-notices.ts";
import { sendMail, smtpConfigured } from "../../services/notify/mailer.ts";
import { optionBool, optionText } from "../../services/options/options.ts";
import { Role } from "../../services/users/roles.ts";
import { db, t, transact } from "../../store/client.ts";
import { run } from "../../store/transact.ts";
import { reloadChannels } from "../caches/channel-cache.ts";
import { ChannelStatus } from "./channel-snapshot.ts";
import { disableReasonFor, parseDisableKeywords } from "../routing/failure-rules.ts";
import type { UpstreamFailure } from "../upstream/upstream-failure.ts";

let keywordsFrom: string | undefined;
let keywords: string[] = [];

function disableKeywords(): string[] {
  const text = optionText("AutomaticDisableKeywords");
  if (text !== keywordsFrom) {
    keywordsFrom = text;
    keywords = parseDisableKeywords(text);
  }
  return keywords;
}

type ChannelRef = { id: number; name: string; autoBan: boolean };

function mergeOtherInfo(current: string, reason: string): string {
  let info: Record<string, unknown> = {};
  try {
    const parsed = JSON.parse(current || "{}");
    if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) info = parsed;
  } catch {
    // A broken value is replaced.
  }
  return JSON.stringify({ ...info, status_reason: reason, status_time: nowSeconds() });
}

/** Mails root that a channel (or, with `keyNumber`, one key of it) was disabled. */
export async function notifyRoot(channel: ChannelRef, reason: string, keyNumber?: number): Promise<void> {
  if (!smtpConfigured()) return;
  const [root] = await db.select({ email: t.users.email }).from(t.users).where(eq(t.users.role, Role.root)).limit(1);
  if (!root?.email) return;
  const translate = translator("zh");
  const text =
    keyNumber === undefined
      ? translate("通道「{{name}}」（#{{id}}）已被禁用，原因：{{reason}}", { name: channel.name, id: channel.id, reason })
      : translate("通道「{{name}}」（#{{id}}）的密钥 #{{key}} 已被禁用，原因：{{reason}}", {
          name: channel.name,
          id: channel.id,
          key: keyNumber,
          reason,
        });
  await sendMail({ to: root.email, subject: text, html: Bun.escapeHTML(text) });
}

/** Disables the channel if the rules say so; true when this call disabled it. */
export async function disableChannelAutomatically(channel: ChannelRef, reason: string): Promise<boolean> {
  if (!optionBool("AutomaticDisableChannelEnabled") || !channel.autoBan) return false;
  const disabled = await transact(function* (tx) {
    const [row] = yield* run(
      tx.select({ other_info: t.channels.other_info }).from(t.channels).where(eq(t.channels.id, channel.id)).limit(1),
    );
    if (!row) return false;
    const changed = yield* run(
      tx
        .update(t.channels)
        .set({ status: ChannelStatus.autoDisabled, other_info: mergeOtherInfo(row.other_info, reason) })
        .where(and(eq(t.channels.id, channel.id), eq(t.channels.status, ChannelStatus.enabled)))
        .returning({ id: t.channels.id }),
    );
    if (changed.length === 0) return false;
    yield* run(tx.update(t.abilities).set({ enabled: false }).where(eq(t.abilities.channel_id, channel.id)));
    return true;
  });
  if (!disabled) return false;
  logger.warn("channel disabled automatically", { channel: channel.id, reason });
  await reloadChannels();
  await announceChange("channels", channel.id);
  notifyRoot(channel, reason).catch(() => undefined);
  return true;
}

/** Why a failure says the key or account is dead (the rules above), or undefined. */
export function deadKeyReason(failure: UpstreamFailure): string | undefined {
  return disableReasonFor(failure, disableKeywords());
}

/** After a failed attempt: disables the channel when the failure says its key or account is dead. */
export async function judgeChannelFailure(channel: ChannelRef, failure: UpstreamFailure): Promise<void> {
  const reason = deadKeyReason(failure);
  if (reason) await disableChannelAutomatically(channel, reason);
}

/** Re-enables a channel the relay disabled, after it passed a test. */
export async function enableChannelAutomatically(channelId: number): Promise<boolean> {
  if (!optionBool("AutomaticEnableChannelEnabled")) return false;
  const enabled = await transact(function* (tx) {
    const changed = yield* run(
      tx
        .update(t.channels)
        .set({ status: ChannelStatus.enabled })
        .where(and(eq(t.channels.id, channelId), eq(t.channels.status, ChannelStatus.autoDisabled)))
        .returning({ id: t.channels.id }),
    );
    if (changed.length === 0) return false;
    yield* run(tx.update(t.abilities).set({ enabled: true }).where(eq(t.abilities.channel_id, channelId)));
    return true;
  });
  if (!enabled) return false;
  logger.info("channel enabled automatically", { channel: channelId });
  await reloadChannels();
  await announceChange("channels", channelId);
  return true;
}
