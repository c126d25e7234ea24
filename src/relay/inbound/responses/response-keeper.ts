// Keeps the answer of a Responses call that asked for storage (responses-state.ts makes one per
// call). It reads the response object the client receives (the whole body, or the terminal
// response.completed / response.incomplete event of a stream) and, once the call is settled and
// before the client gets that end, writes it: whole with its items when the gateway made it from
// another vendor's answer, as a route to the channel when an OpenAI or Azure channel answered
// (that upstream keeps it itself). A failed response is not kept; a write that fails is logged
// and the answer still goes out.
import { logger } from "../../../logger.ts";
import { keepAnsweredResponse, keepResponseRoute } from "../../../services/responses/stored-responses.ts";
import type { ChannelSnapshot } from "../../channels/channel-snapshot.ts";
import type { Attempt } from "../../pipeline/attempt-types.ts";
import type { StreamConverter } from "../../providers/adaptor.ts";
import type { AnswerKeeper } from "../../request/answer-keeper.ts";
import type { Item } from "./responses-items.ts";

type Facts = { userId: number; model: string; previousResponseId: string | null; input: Item[] };

const decoder = new TextDecoder();
const keptStatuses = new Set(["completed", "incomplete"]);

function objectOf(text: string): Record<string, any> | undefined {
  try {
    const value = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The response of a terminal event among the texts sent to the client, if one is there. */
function terminalResponse(texts: string[]): Record<string, any> | undefined {
  for (const text of texts) {
    if (!text.includes('"response.completed"') && !text.includes('"response.incomplete"')) continue;
    for (const line of text.split("\n")) {
      if (!line.startsWith("data:")) continue;
      const event = objectOf(line.slice(5).trim());
      if ((event?.type === "response.completed" || event?.type === "response.incomplete") && event.response) return event.response;
    }
  }
  return undefined;
}

export class ResponsesKeeper implements AnswerKeeper {
  private response: Record<string, any> | undefined;
  private converted = false;

  constructor(private readonly facts: Facts) {}

  watch(attempt: Attempt, converted: boolean): Attempt {
    if (!attempt.ok) return attempt;
    this.converted = converted;
    if (attempt.kind === "json") {
      const body = attempt.converted.body;
      this.response = objectOf(typeof body === "string" ? body : decoder.decode(body));
      return attempt;
    }
    const inner = attempt.stream.converter;
    const look = (texts: string[]) => {
      this.response ??= terminalResponse(texts);
      return texts;
    };
    const converter: StreamConverter = {
      push: (event) => look(inner.push(event)),
      finish: () => look(inner.finish()),
      finished: () => inner.finished(),
      usage: () => inner.usage(),
      output: () => inner.output(),
      ...(inner.abort ? { abort: (error) => inner.abort!(error) } : {}),
    };
    return { ...attempt, stream: { ...attempt.stream, converter } };
  }

  async save(channel: Pick<ChannelSnapshot, "id">): Promise<void> {
    const response = this.response;
    if (!response || typeof response.id !== "string" || !keptStatuses.has(response.status)) return;
    const { userId, model, previousResponseId, input } = this.facts;
    try {
      if (this.converted) await keepAnsweredResponse({ id: response.id, userId, model, previousResponseId, response, input });
      // The upstream keeps what it was asked to keep; a response it did not store has no route.
      else if (response.store !== false)
        await keepResponseRoute({ id: response.id, userId, channelId: channel.id, model, previousResponseId });
    } catch (error) {
      logger.warn("could not keep a Responses API answer", {
        id: response.id,
        error: error instanceof Error ? error.message : String(error),
      });
    }
  }
}
