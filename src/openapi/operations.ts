// What the API reference says about each route beyond what the router knows: a summary, who may
// call it, and the zod schemas of its input. The schemas are the very objects the services
// validate with (parseInput), so the document cannot describe a body other than the one that
// is checked. Routes whose input is read by hand (queries with new-api's lenient defaults, the
// relay's OpenAI bodies) name their parameters instead.
import type { z } from "zod";

/** Who may call: nobody in particular, a signed-in user (session or access token) of at least a
 * role, a relay token (sk-), or a payment provider (signed notification). */
export type Access = "public" | "user" | "admin" | "root" | "relay" | "payment";

export type QueryParameter = { name: string; description: string; type?: "string" | "integer" | "boolean" };

export type Operation = {
  tag: string;
  /** A catalog key of the apidocs namespace (the Chinese summary); the document holds it translated. */
  summary: string;
  access: Access;
  /** The body the handler validates: one of the services' zod schemas. */
  body?: z.ZodType;
  /** A body read without a zod schema (the relay forwards OpenAI's own), described in words. */
  bodyNote?: string;
  query?: QueryParameter[];
  /** Extra words: what the answer holds, quirks kept for new-api's clients. */
  description?: string;
};

export type OperationCatalogue = Record<string, Operation>;

export const paging = (zeroBased: boolean, sizeName = "page_size"): QueryParameter[] => [
  { name: "p", type: "integer", description: zeroBased ? "page, counted from 0" : "page, counted from 1" },
  { name: sizeName, type: "integer", description: "rows per page (default 10, at most 100)" },
];

export const operation = (tag: string, access: Access, summary: string, extra: Partial<Operation> = {}): Operation => ({
  tag,
  access,
  summary,
  ...extra,
});
