// Bodies kept by the opt-in request inspector (issue 27): while an admin has capture on for a
// token or a user, each relayed call's request and answer are kept beside its log entry, each
// cut at 256 KB, for CaptureRetentionDays. Credentials are never stored (services/captures/).
// A row goes with its log entry (deleting logs deletes their captures).
import type { Kit } from "../kit.ts";

export const defineLogCaptures = (k: Kit, logs: { id: any }) =>
  k.table(
    "log_captures",
    {
      log_id: k
        .int("log_id")
        .primaryKey()
        .references(() => logs.id, { onDelete: "cascade" }),
      /** The caller's user (the log entry's), who may read it besides the admins. */
      user_id: k.int("user_id").notNull(),
      created_at: k.bigint("created_at").notNull(),
      method: k.varchar("method", 16).notNull().default(""),
      /** The request's path and query, credentials in the query (Gemini's `key`) removed. */
      path: k.text("path").notNull().default(""),
      /** JSON object of the request's headers, without any credential-like header. */
      request_headers: k.text("request_headers").notNull().default("{}"),
      request_body: k.text("request_body").notNull().default(""),
      /** Bytes of the whole body as sent; more than what is kept when it was cut. */
      request_size: k.bigint("request_size").notNull().default(0),
      response_status: k.int("response_status").notNull().default(0),
      /** What the client received: the whole answer, or a stream's text as sent. */
      response_body: k.text("response_body").notNull().default(""),
      response_size: k.bigint("response_size").notNull().default(0),
      is_stream: k.bool("is_stream").notNull().default(false),
    },
    (table) => [k.index("log_captures_created_index").on(table.created_at)],
  );
