// What a call in a stateful format (OpenAI's Responses API) keeps of its answer: the keeper sees
// the attempt that answered, then writes what it saw after the settlement and before the client
// receives the end of the answer, so a follow-up sent at once already finds it.
import type { Attempt } from "../pipeline/attempt-types.ts";
import type { ChannelSnapshot } from "../channels/channel-snapshot.ts";

export interface AnswerKeeper {
  /**
   * The successful attempt, as the client will receive it; returns it (wrapped to watch a
   * stream go by). `converted`: the channel did not speak the client's format.
   */
  watch(attempt: Attempt, converted: boolean): Attempt;
  /** Writes what was watched (nothing when the answer did not complete); never throws. */
  save(channel: Pick<ChannelSnapshot, "id">): Promise<void>;
}
