// The Responses API's state over any channel (issue 24). Before a Responses call is priced:
//   - `previous_response_id` naming a response the gateway answered: the conversation kept for it
//     is put in front of the input (so any channel can continue it, and the prompt is counted
//     whole); naming one an OpenAI or Azure channel keeps: the call must go to that channel,
//     untouched; naming one the gateway never saw: left to the channel (OpenAI and Azure take it
//     as before; another channel refuses it as not found);
//   - `item_reference` items naming the user's kept items are replaced by the items;
//   - when the client asked for storage (`store` true or absent) and the operator keeps
//     responses, a keeper (response-keeper.ts) records the answer.
// Ids tell nothing by themselves: an upstream id and ours look alike, so the store is asked.
import { AppError } from "../../../errors/app-error.ts";
import { conversationUpTo, findStoredResponse, itemsById, keepingResponses } from "../../../services/responses/stored-responses.ts";
import type { RelayCaller } from "../../relay-context.ts";
import type { ParsedCall } from "../../request/read-call.ts";
import { responsesCodec } from "./responses-codec.ts";
import { inputItemsOf, keptItem, type Item } from "./responses-items.ts";
import { ResponsesKeeper } from "./response-keeper.ts";

const encoder = new TextEncoder();

const notFound = (field: string, id: string) =>
  new AppError("invalid", "未找到 {{field}} 所指的响应或条目：{{id}}", { field, id }, { code: "previous_response_not_found" });

export async function prepareResponsesCall(call: ParsedCall, caller: RelayCaller): Promise<ParsedCall> {
  const body = call.json ?? {};
  const store = body.store !== false && keepingResponses();
  const previous = typeof body.previous_response_id === "string" && body.previous_response_id !== "" ? body.previous_response_id : null;
  let history: Item[] | undefined;
  let requiredChannelId: number | undefined;
  if (previous) {
    const kept = await findStoredResponse(caller.userId, previous);
    if (kept && kept.channelId !== 0) requiredChannelId = kept.channelId;
    else if (kept) {
      history = await conversationUpTo(caller.userId, previous);
      // A link of the chain expired or was deleted: the conversation cannot be rebuilt.
      if (!history) throw notFound("previous_response_id", previous);
    }
  }

  const input = inputItemsOf(body.input);
  const references = input.filter((item) => item.type === "item_reference" && typeof item.id === "string").map((item) => item.id as string);
  const resolved = references.length && requiredChannelId === undefined ? await itemsById(caller.userId, references) : new Map();
  const own = input.map((item) => (item.type === "item_reference" && resolved.has(item.id) ? (resolved.get(item.id) as Item) : item));

  let next: ParsedCall = { ...call, echo: { ...body, store } };
  if (requiredChannelId !== undefined) next.requiredChannelId = requiredChannelId;
  if (history || resolved.size > 0) {
    const expanded: Record<string, unknown> = { ...body, input: [...(history ?? []), ...own] };
    if (history) delete expanded.previous_response_id;
    next = {
      ...next,
      json: expanded,
      rawBody: encoder.encode(JSON.stringify(expanded)),
      asChat: responsesCodec.toChat(expanded, call.model, call.stream),
    };
  }
  if (store) {
    next.keeper = new ResponsesKeeper({
      userId: caller.userId,
      model: call.model,
      previousResponseId: previous,
      input: own.map(keptItem),
    });
  }
  return next;
}
