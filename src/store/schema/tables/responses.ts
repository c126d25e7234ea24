// Responses API state the gateway keeps (issue 24): the responses it answered itself when the
// client asked for storage, with their input and output items, so `previous_response_id`,
// `item_reference` and GET/DELETE /v1/responses/{id} work over any channel. A response an
// OpenAI or Azure channel answered stays upstream: only its route is kept (which channel holds
// it, for whom), so follow-ups and reads go back to that channel. Rows belong to one user and go
// with the user; the retention sweep (services/responses/response-sweep.ts) ends the rest.
import type { Kit } from "../kit.ts";

export const defineStoredResponses = (k: Kit, users: { id: any }) =>
  k.table(
    "stored_responses",
    {
      /** The response id the client was given: ours (resp_...), or the upstream's for a route. */
      id: k.varchar("id", 128).primaryKey(),
      user_id: k
        .int("user_id")
        .notNull()
        .references(() => users.id, { onDelete: "cascade" }),
      /** 0: answered by the gateway, kept here. Otherwise the channel that keeps it upstream. */
      channel_id: k.int("channel_id").notNull().default(0),
      model: k.varchar("model", 255).notNull().default(""),
      previous_response_id: k.varchar("previous_response_id", 128),
      /** The response object as answered, without `output` (its items are rows of their own). Empty for a route. */
      body: k.text("body").notNull().default(""),
      /** Bytes kept for this response and its items, for the per-user size cap. */
      bytes: k.bigint("bytes").notNull().default(0),
      created_at: k.bigint("created_at").notNull(),
      expires_at: k.bigint("expires_at").notNull(),
    },
    (table) => [
      k.index("stored_responses_user_index").on(table.user_id, table.created_at),
      k.index("stored_responses_expires_index").on(table.expires_at),
    ],
  );

export const defineStoredResponseItems = (k: Kit, responses: { id: any }) =>
  k.table(
    "stored_response_items",
    {
      response_id: k
        .varchar("response_id", 128)
        .notNull()
        .references(() => responses.id, { onDelete: "cascade" }),
      /** Order within the response: input items first, then output items. */
      position: k.int("position").notNull(),
      user_id: k.int("user_id").notNull(),
      /** The item's id (msg_, fc_, rs_...): what an item_reference names. */
      item_id: k.varchar("item_id", 128).notNull(),
      /** input | output */
      role: k.varchar("role", 8).notNull(),
      /** The item as JSON. */
      item: k.text("item").notNull(),
    },
    (table) => [
      k.primaryKey({ columns: [table.response_id, table.position] }),
      k.index("stored_response_items_item_index").on(table.user_id, table.item_id),
    ],
  );
