// Which key a drawing or music call goes out with, and what a refusal of it does. A one-key
// channel uses its key, and an upstream that refuses it (a dead key) disables the channel under
// the relay's rules. A multi-key channel takes one of its enabled keys (in turn or at random,
// channels/key-pool.ts: the same turn as its chat calls), and a refusal that is the key's own (its
// authentication, its account, its rate limit) hands the call to the next untried key at once: a
// dead key is disabled alone, the channel only with its last key (channels/key-health.ts). A
// follow-up of a task goes with the key that took the task (its account holds the task). Nothing
// is charged per attempt: the caller holds once and settles or releases on the answer returned.
import { judgeChannelFailure } from "../channels/channel-health.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";
import { disableKeyAutomatically, judgeKeyFailure } from "../channels/key-health.ts";
import { keyTargetOf, pickKey } from "../channels/key-pool.ts";
import type { UpstreamTarget } from "../providers/adaptor.ts";
import type { PlainAnswer } from "../upstream/send-once.ts";
import { statusFailure, type UpstreamFailure } from "../upstream/upstream-failure.ts";

export type KeyedAnswer = { answer: PlainAnswer; target: UpstreamTarget; keyIndex: number };

export type KeyedSend = {
  send(target: UpstreamTarget): Promise<PlainAnswer>;
  /** An answer in the upstream's format that says the key's account cannot serve (midjourney-proxy's code 3). */
  deadAccount?(answer: PlainAnswer): string | undefined;
  /** The key a follow-up must use (the original task's); undefined for a new task. */
  fixedKeyIndex?: number;
};

/** An HTTP refusal as the relay's failure value, so the relay's rules judge it (401, disable keywords...). */
export function answerFailure(answer: PlainAnswer, channel: ChannelSnapshot, target: UpstreamTarget): UpstreamFailure | undefined {
  if (answer.status === 0 || (answer.status >= 200 && answer.status < 300)) return undefined;
  let message = answer.text.trim().slice(0, 300);
  let code: string | null = null;
  try {
    const parsed = JSON.parse(answer.text) as Record<string, unknown>;
    const said = parsed.description ?? parsed.message ?? parsed.error;
    if (typeof said === "string") message = said;
    if (typeof parsed.code === "string") code = parsed.code;
  } catch {
    // Not JSON: the text itself.
  }
  const mapped = channel.statusCodeMapping.get(answer.status) ?? answer.status;
  return statusFailure(answer.status, mapped, { message, type: "", code, param: null }, target);
}

async function sendWithOwnKey(channel: ChannelSnapshot, call: KeyedSend): Promise<KeyedAnswer> {
  const answer = await call.send(channel.target);
  const failure = answerFailure(answer, channel, channel.target);
  if (failure) await judgeChannelFailure(channel, failure);
  return { answer, target: channel.target, keyIndex: -1 };
}

/** Sends with the channel's key, or with its keys one after another while a refusal is the key's own. */
export async function sendWithChannelKeys(channel: ChannelSnapshot, call: KeyedSend): Promise<KeyedAnswer> {
  const pool = channel.keyPool;
  if (!pool) return sendWithOwnKey(channel, call);
  if (call.fixedKeyIndex !== undefined && call.fixedKeyIndex >= 0) {
    const target = keyTargetOf(pool, channel.target, call.fixedKeyIndex);
    return { answer: await call.send(target), target, keyIndex: call.fixedKeyIndex };
  }
  const tried = new Set<number>();
  let last: KeyedAnswer | undefined;
  for (let slot = pickKey(pool, tried); slot; slot = pickKey(pool, tried)) {
    tried.add(slot.index);
    last = { answer: await call.send(slot.target), target: slot.target, keyIndex: slot.index };
    const deadAccount = call.deadAccount?.(last.answer);
    if (deadAccount) {
      await disableKeyAutomatically(channel, slot.index, deadAccount);
      continue;
    }
    const failure = answerFailure(last.answer, channel, slot.target);
    if (failure && (await judgeKeyFailure(channel, slot.index, failure))) continue;
    return last;
  }
  // No enabled key left (the index is being rebuilt): the channel's own target, as a one-key channel.
  return last ?? { answer: await call.send(channel.target), target: channel.target, keyIndex: -1 };
}
