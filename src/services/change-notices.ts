// Change notices between the writers of data and the caches that read it on the hot path.
// A service that changes channels, tokens, users or prices calls the matching notice after its
// write commits; every instance (through SharedState: in-process or Redis pub/sub) hears it and
// drops or rebuilds its cached copy. Listeners must be cheap and must not throw.
import { shared } from "../cache/open-shared-state.ts";

export type ChangeTopic = "channels" | "tokens" | "users" | "groups" | "sessions";

const topicPrefix = "changed:";

/** Announces a change. `subject` narrows it (a token key, a user id); empty means "all". */
export async function announceChange(topic: ChangeTopic, subject: string | number = ""): Promise<void> {
  await shared.publish(topicPrefix + topic, String(subject));
}

/** Listens for changes on a topic, from this and every other instance. */
export function onChange(topic: ChangeTopic, listener: (subject: string) => void): void {
  shared.subscribe(topicPrefix + topic, (subject) => {
    try {
      listener(subject);
    } catch {
      // A broken listener must not stop the others; caches also resync periodically.
    }
  });
}
