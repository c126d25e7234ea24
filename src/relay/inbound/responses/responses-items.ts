// Responses API input as a list of items, the way the gateway keeps and completes it: a string
// input is one user message, and every item kept gets an id (what an item_reference or the
// input_items list names).
import { nativeId } from "../inbound-codec.ts";

export type Item = Record<string, any>;

const prefixes: Record<string, string> = {
  message: "msg_",
  function_call: "fc_",
  function_call_output: "fco_",
  reasoning: "rs_",
  custom_tool_call: "ctc_",
  custom_tool_call_output: "ctco_",
  tool_search_call: "tsc_",
  tool_search_output: "tso_",
};

/** The input as items (a string is one user message). */
export function inputItemsOf(input: unknown): Item[] {
  if (typeof input === "string") return [{ type: "message", role: "user", content: [{ type: "input_text", text: input }] }];
  return Array.isArray(input) ? input.filter((item): item is Item => !!item && typeof item === "object" && !Array.isArray(item)) : [];
}

/**
 * The item as it is kept and listed: typed, with an id (given one when it came without), a
 * message's text content as its one text part, as the Responses API lists input items.
 */
export function keptItem(item: Item): Item {
  const type = typeof item.type === "string" ? item.type : "message";
  const kept: Item = { ...item, type };
  if (type === "message" && typeof item.content === "string") {
    kept.content = [{ type: item.role === "assistant" ? "output_text" : "input_text", text: item.content }];
  }
  if (typeof item.id !== "string" || item.id === "") kept.id = nativeId(prefixes[type] ?? "item_");
  return kept;
}
